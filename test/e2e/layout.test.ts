// The layout at 1400×900, 900×700 and 800×600 in Chromium through `cove serve`: side panels
// that close by width and by their buttons (remembered after a reload), a one-line session
// header, a transcript that keeps its height, and toasts that keep off Stop and Send.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { launchChromium, openApp, skipReason, startE2E, startSession, type E2E } from './support';

const skip = skipReason();

const PROMPT = 'Split the parser work';
const SUBAGENT_TASK = 'LOOK-AT the tokenizer';

/** The session asks for a subagent whose own request never ends: the run stays busy, with a running subagent. */
function script(request: RecordedRequest) {
  const first = JSON.stringify(request.body.messages[0]?.content ?? '');
  if (first.includes('LOOK-AT')) return reply.hang({ afterEvents: 4, partial: reply.text('Reading the tokenizer', { chunks: 2 }) });
  return reply.message([block.text('I will ask a helper.'), block.toolUse('subagent', { task: SUBAGENT_TASK })]);
}

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  assert.ok(found, 'the element has a box on screen');
  return found;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Wholly inside the viewport, and the element hit at its centre is itself (nothing on top of it). */
async function assertUncovered(page: Page, locator: Locator, what: string): Promise<Box> {
  const found = await box(locator);
  const viewport = page.viewportSize()!;
  assert.ok(found.x >= 0 && found.y >= 0 && found.x + found.width <= viewport.width && found.y + found.height <= viewport.height, `${what} is inside the window: ${JSON.stringify(found)}`);
  const onTop = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
  assert.ok(onTop, `nothing covers ${what}`);
  return found;
}

const sessionsNav = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const subagentsAside = (page: Page) => page.getByRole('complementary', { name: 'Subagents' });
const transcript = (page: Page) => page.getByRole('region', { name: 'Transcript' });
const header = (page: Page) => page.locator('header.session-header');

describe('layout in narrow and wide windows', { skip }, () => {
  let browser: Browser;
  let e2e: E2E;

  before(async () => {
    browser = await launchChromium();
    e2e = await startE2E(script, browser);
  });
  after(async () => {
    await e2e?.close();
    await browser?.close();
  });

  test('1400×900: both panels and the two-line header', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 1400, height: 900 });
    await openApp(e2e);
    await startSession(e2e, PROMPT);
    await subagentsAside(page).getByText(SUBAGENT_TASK).waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await sessionsNav(page).waitFor();
    await header(page).getByRole('combobox', { name: 'Permission mode' }).waitFor();
    assert.equal(await header(page).getByRole('button', { name: 'Session options' }).count(), 0, 'no options button in a wide window');
    // Two lines beside both panels (it wrapped to three, Delete session alone on the last).
    const controls = await header(page).locator('.session-controls').boundingBox();
    const deleteButton = await header(page).getByRole('button', { name: 'Delete session' }).boundingBox();
    assert.ok(controls && deleteButton && deleteButton.y + deleteButton.height <= controls.y + 40, `the controls take one line: ${JSON.stringify({ controls, deleteButton })}`);
    assert.equal(await page.getByRole('button', { name: 'Subagents panel' }).getAttribute('aria-expanded'), 'true');
    await e2e.screenshot('layout-1-wide');
  });

  test('900×700: the subagents panel closes, the header takes one line, the transcript most of the height', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 900, height: 700 });
    await subagentsAside(page).waitFor({ state: 'detached' });
    await sessionsNav(page).waitFor();
    const toggle = page.getByRole('button', { name: 'Subagents panel' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.match((await toggle.getAttribute('title')) ?? '', /window is narrow/);
    const options = header(page).getByRole('button', { name: 'Session options' });
    await options.waitFor();
    assert.ok((await box(header(page))).height <= 56, `the header is one line: ${(await box(header(page))).height} px`);
    const height = (await box(transcript(page))).height;
    assert.ok(height >= 0.6 * 700, `the transcript is ${height} px of 700`);
    // The sessions panel and the transcript share the width; the transcript keeps at least 540 px.
    assert.ok((await box(transcript(page))).width >= 540, 'the transcript is wide enough for terminal output');
    await assertUncovered(page, page.getByRole('button', { name: 'Send' }), 'Send');

    await options.click();
    const group = page.getByRole('group', { name: 'Session options' });
    await group.getByRole('combobox', { name: 'Permission mode' }).waitFor();
    await e2e.screenshot('layout-2-900-options');
    await page.keyboard.press('Escape');
    await group.waitFor({ state: 'detached' });
    assert.equal(await options.evaluate((element) => element === document.activeElement), true, 'Escape gives focus back to the button');

    await toggle.focus();
    await page.keyboard.press('Enter');
    await subagentsAside(page).getByText(SUBAGENT_TASK).waitFor();
    await page.reload();
    await subagentsAside(page).getByText(SUBAGENT_TASK).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Subagents panel' }).getAttribute('aria-expanded'), 'true', 'opened by hand, it stays open after a reload');
    await e2e.screenshot('layout-3-900');
    await page.getByRole('button', { name: 'Subagents panel' }).click();
    await subagentsAside(page).waitFor({ state: 'detached' });
  });

  test('800×600: the sessions panel closes, Stop and Send stay visible, a toast keeps off them', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 800, height: 600 });
    await sessionsNav(page).waitFor({ state: 'detached' });
    const height = (await box(transcript(page))).height;
    assert.ok(height >= 0.6 * 600, `the transcript is ${height} px of 600`);
    const stop = await assertUncovered(page, page.getByRole('button', { name: 'Stop', exact: true }), 'Stop');
    const send = await assertUncovered(page, page.getByRole('button', { name: 'Send' }), 'Send');

    const added = join(e2e.workspace, 'second-root');
    mkdirSync(added);
    await header(page).getByRole('button', { name: 'Session options' }).click();
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('combobox', { name: 'Folder to add' }).fill(added);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const toast = page.locator('.notice').filter({ hasText: 'second-root' });
    await toast.waitFor();
    const toastBox = await box(toast);
    assert.ok(!overlaps(toastBox, stop) && !overlaps(toastBox, send), `the toast ${JSON.stringify(toastBox)} keeps off Stop ${JSON.stringify(stop)} and Send ${JSON.stringify(send)}`);
    await assertUncovered(page, page.getByRole('button', { name: 'Stop', exact: true }), 'Stop under a toast');
    await e2e.screenshot('layout-4-800-toast');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Sessions panel' }).click();
    await sessionsNav(page).waitFor();
    await page.reload();
    await sessionsNav(page).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sessions panel' }).getAttribute('aria-expanded'), 'true', 'opened by hand, it stays open after a reload');
    await page.getByRole('button', { name: 'Sessions panel' }).click();
    await sessionsNav(page).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByRole('combobox', { name: 'Project folder' }).waitFor();
  });

  test('800×600: the drop hint says its words on a card of its own', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 800, height: 600 });
    const files = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['x'], 'project'));
      return transfer;
    });
    await page.dispatchEvent('body', 'dragenter', { dataTransfer: files });
    const words = page.locator('.drop-hint-text');
    await words.waitFor();
    const background = await words.evaluate((element) => getComputedStyle(element).backgroundColor);
    const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(background)?.[1];
    assert.ok(alpha === undefined || Number(alpha) === 1, `the words' card is opaque: ${background}`);
    await e2e.screenshot('layout-6-800-drop');
    await page.dispatchEvent('body', 'dragleave', { dataTransfer: files });
    await words.waitFor({ state: 'detached' });
  });

  test('dark, 900×700: a screenshot to look at', async () => {
    const { page } = e2e;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 900, height: 700 });
    await sessionsNav(page).waitFor();
    await page
      .getByRole('list', { name: 'Session list' })
      .getByRole('button', { name: new RegExp(`^${PROMPT}`) })
      .click();
    await transcript(page).waitFor();
    await e2e.screenshot('layout-5-dark-900');
    assert.deepEqual(e2e.problems, []);
  });
});
