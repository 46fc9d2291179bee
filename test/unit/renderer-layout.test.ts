// Which side panels show at a width, what a person's choice does there and at other widths, and
// how the sessions list groups its rows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseBelow, panelState, toggledChoice, type PanelChoices } from '../../renderer/app/panel-layout';
import { dateGroup, groupedRows } from '../../renderer/features/sessions/session-groups';
import type { SessionSummary } from '../../shared/contract';
import { sessionSummary } from './helpers/session-summary';

describe('panel layout', () => {
  test('the subagents panel closes first, then the sessions panel, each leaving the transcript 540 px', () => {
    assert.equal(collapseBelow('subagents'), 1100);
    assert.equal(collapseBelow('sessions'), 820);
    const at = (width: number) => [panelState('sessions', width, {}).open, panelState('subagents', width, {}).open];
    assert.deepEqual(at(1400), [true, true]);
    assert.deepEqual(at(1100), [true, true]);
    assert.deepEqual(at(900), [true, false]);
    assert.deepEqual(at(800), [false, false]);
    assert.equal(panelState('subagents', 900, {}).autoCollapsed, true);
    assert.equal(panelState('subagents', 1400, {}).autoCollapsed, false);
  });

  test("a person's choice holds at widths on its side of the threshold, and lapses across it", () => {
    let choices: PanelChoices = {};
    choices = { ...choices, subagents: toggledChoice('subagents', 900, choices) };
    assert.deepEqual(choices.subagents, { open: true, narrow: true });
    assert.equal(panelState('subagents', 900, choices).open, true, 'opened by hand in a narrow window');
    assert.equal(panelState('subagents', 1000, choices).open, true, 'still narrow: still open');
    assert.equal(panelState('subagents', 1400, choices).open, true, 'wide: open by width anyway');
    choices = { ...choices, subagents: toggledChoice('subagents', 1400, choices) };
    assert.equal(panelState('subagents', 1400, choices).open, false, 'closed by hand in a wide window');
    assert.equal(panelState('subagents', 1400, choices).autoCollapsed, false, 'closed by the person, not the width');
    assert.equal(panelState('subagents', 900, choices).open, false);
    assert.equal(panelState('subagents', 900, choices).autoCollapsed, true, 'narrow: the choice of a wide window lapses');
  });
});

function session(id: string, updatedAt: number, workspace: string): SessionSummary {
  return sessionSummary(id, { workspaces: [workspace], createdAt: updatedAt, updatedAt });
}

describe('session groups', () => {
  const now = new Date(2026, 11, 2, 15, 0).getTime();
  const hour = 3_600_000;

  test('by date: today, yesterday, the week, the month, then each month', () => {
    assert.equal(dateGroup(now - hour, now).label, 'Today');
    assert.equal(dateGroup(now - 20 * hour, now).label, 'Yesterday');
    assert.equal(dateGroup(now - 4 * 24 * hour, now).label, 'Previous 7 days');
    assert.equal(dateGroup(now - 20 * 24 * hour, now).label, 'Previous 30 days');
    assert.equal(dateGroup(new Date(2026, 5, 10).getTime(), now).key, '2026-5');
    const rows = groupedRows([session('a', now - hour, '/p/x'), session('b', now - 2 * hour, '/p/y'), session('c', now - 30 * hour, '/p/x')], 'date', now);
    assert.deepEqual(
      rows.map((row) => (row.kind === 'group' ? `# ${row.label}` : row.key)),
      ['# Today', 'a', 'b', '# Yesterday', 'c'],
    );
  });

  test('by project: folders in the order of their newest session; same-named folders by their path', () => {
    const rows = groupedRows(
      [session('a', 5, '/one/app'), session('b', 4, '/two/lib'), session('c', 3, '/one/app'), session('d', 2, '/three/app'), session('e', 1, '/two/lib')],
      'project',
      now,
    );
    assert.deepEqual(
      rows.map((row) => (row.kind === 'group' ? `# ${row.label}` : row.key)),
      ['# /one/app', 'a', 'c', '# lib', 'b', 'e', '# /three/app', 'd'],
    );
  });
});
