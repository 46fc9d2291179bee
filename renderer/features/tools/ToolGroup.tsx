/**
 * Consecutive read-only calls as one line ("Read 4 files, 2 searches") that opens to their
 * cards. ./tool-groups.ts decides what is grouped; useGroupedRows keeps a group the same object
 * while its calls are unchanged, so the memoized row does not redraw on every event.
 */
import { memo, useId, useMemo, useRef } from 'react';
import type { TranscriptItem } from '../transcript/model-types';
import { useToggle } from '../../store/use-toggle';
import { ToolCard } from './ToolCard';
import { ToolToggle } from './ToolToggle';
import { groupOutcome, groupSummary, groupToolCalls, type ToolGroupRow, type TranscriptRowItem } from './tool-groups';

export function useGroupedRows(items: TranscriptItem[]): TranscriptRowItem[] {
  const groups = useRef(new Map<string, ToolGroupRow>());
  return useMemo(() => {
    const rows = groupToolCalls(items, groups.current);
    groups.current = new Map(rows.flatMap((row) => (row.kind === 'toolGroup' ? [[row.key, row] as const] : [])));
    return rows;
  }, [items]);
}

export const ToolGroup = memo(function ToolGroup({ group }: { group: ToolGroupRow }) {
  const [open, setOpen] = useToggle(`${group.key}:group`);
  const bodyId = useId();
  const summary = groupSummary(group.tools);
  const { running, failed } = groupOutcome(group.tools);
  const state = running ? 'Running' : failed > 0 ? `${failed} failed` : 'Done';
  const tone = running ? 'running' : failed > 0 ? 'failed' : 'done';
  return (
    <div className={`item tool-group tool-${tone}`} role="group" aria-label={`${summary}: ${state}`}>
      <header className="tool-header">
        <ToolToggle open={open} bodyId={bodyId} tone={tone} running={running} onToggle={() => setOpen(!open)}>
          <span className="tool-group-summary">{summary}</span>
        </ToolToggle>
        <span className="tool-state">{state}</span>
      </header>
      {open ? (
        <div id={bodyId} className="tool-group-calls">
          {group.tools.map((tool) => (
            <ToolCard key={tool.key} item={tool} />
          ))}
        </div>
      ) : null}
    </div>
  );
});
