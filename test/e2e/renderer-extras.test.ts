// The renderer's later additions in Chromium: a server restarted with a new token, a denial
// with a reason, status badges by their words, a top bar that keeps its height, one-line tool
// results, the persona picker, and MCP servers in Settings. Screenshots of the last two also
// go to /tmp/cove-shots/ for a person to look at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { modelScript, PROMPTS } from './model-script';
import { startServe } from './serve-process';
import { launchChromium, skipReason, startSession, withApp, type E2E } from './support';

const skip = skipReason();
const SHOTS = '/tmp/cove-shots';
const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

const sessionHeader = (page: Page) => page.locator('header.session-header');

/** Takes out of the page's problems those the test causes on purpose; fails on any other. */
function expectProblems(e2e: E2E, expected: RegExp): void {
  const unexpected = e2e.problems.filter((problem) => !expected.test(problem));
  e2e.problems.splice(0, e2e.problems.length, ...unexpected);
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

describe('renderer extras in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a server restarted with a new token: the page stops reconnecting and says to open the printed address', () =>
    withApp(browser, 'extras-refused', modelScript, async (e2e) => {
      const { page } = e2e;
      await e2e.serve.stop();
      await page.getByRole('alert').filter({ hasText: 'Lost the connection to Cove' }).waitFor();

      const fresh = await startServe(e2e.home, ['--port', String(e2e.serve.port), '--token', `e2e-${randomBytes(16).toString('hex')}`]);
      try {
        const alert = page.getByRole('alert').filter({ hasText: "This page's token is no longer valid" });
        await alert.waitFor();
        assert.match((await alert.textContent()) ?? '', /open the address `cove serve` printed/);
        await page.getByRole('alert').filter({ hasText: 'Lost the connection to Cove' }).waitFor({ state: 'detached' });
        await page.screenshot({ path: join(SHOTS, 'refused-token.png') });

        await page.goto(fresh.url);
        await page.getByRole('button', { name: 'New session' }).waitFor();
        assert.equal(await page.getByRole('alert').filter({ hasText: 'token' }).count(), 0, 'the printed address works again');
        // The session view's chunk is fetched at idle after the list: let it finish, or stopping
        // the server below makes its five files fail, each a console error.
        await page.waitForLoadState('networkidle');
      } finally {
        // Leave the page first: stopping the server under it starts its reconnect attempts,
        // each a console error that could land after the problems were taken out.
        await page.goto('about:blank').catch(() => undefined);
        await fresh.stop();
      }
      expectProblems(e2e, /WebSocket connection to .* failed|Failed to load resource/);
    }));

  test('deny with a reason reaches the agent; badges read as words; the top bar keeps its height; a one-line result shows inline', () =>
    withApp(browser, 'extras-deny-reason', modelScript, async (e2e) => {
      const { page } = e2e;
      const topbar = page.locator('header.topbar');
      await startSession(e2e, PROMPTS.write);
      await page.getByRole('article', { name: 'Permission request: write_file' }).waitFor();
      await sessionHeader(page).getByText('Status: Waiting for you').waitFor();
      assert.equal(await page.getByRole('combobox', { name: /^Persona/ }).count(), 0, 'no persona picker in a folder without personas');
      const heightAlone = (await topbar.boundingBox())!.height;

      await startSession(e2e, PROMPTS.deny);
      const banner = page.getByRole('status').filter({ hasText: `“${PROMPTS.write}” is waiting for you` });
      await banner.waitFor();
      assert.equal((await topbar.boundingBox())!.height, heightAlone, 'the waiting banner fits in the top bar');

      const card = page.getByRole('article', { name: 'Permission request: write_file' });
      await card.getByRole('textbox', { name: 'Tell the agent why (optional)' }).fill('Keep notes in NOTES.md instead');
      await page.screenshot({ path: join(SHOTS, 'deny-reason.png') });
      await card.getByRole('button', { name: 'Deny' }).click();
      await card.getByRole('status').filter({ hasText: 'Denied' }).waitFor();
      await page.getByRole('article', { name: 'write_file tool: Denied' }).getByRole('note').filter({ hasText: 'Keep notes in NOTES.md instead' }).waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'I left notes.txt alone' }).waitFor();
      const denial = JSON.stringify(e2e.model.requests.at(-1)!.body.messages.at(-1));
      assert.match(denial, /the person denied it: Keep notes in NOTES\.md instead/);

      await banner.getByRole('button', { name: `Go to “${PROMPTS.write}”` }).click();
      await page.getByRole('article', { name: 'Permission request: write_file' }).getByRole('button', { name: 'Allow once' }).click();
      const tool = page.getByRole('article', { name: 'write_file tool: Done' });
      await tool
        .getByRole('group', { name: 'write_file output' })
        .filter({ hasText: /^Created hello\.txt/ })
        .waitFor();
      assert.equal(await tool.getByRole('button', { name: /Show output/ }).count(), 0, 'a one-line result is not behind Show output');
      await sessionHeader(page).getByText('Status: Done').waitFor();
      await e2e.screenshot('extras-deny-reason');
    }));

  test('the persona picker lists the folder’s personas, switches, and warns of a broken file', () =>
    withApp(browser, 'extras-personas', modelScript, async (e2e) => {
      const { page } = e2e;
      writeFiles(e2e.workspace, {
        '.cove/personas/reviewer.md': '---\nname: reviewer\ndescription: Reads and comments; never edits\ntools: [read_file, list_files, search]\n---\nYou review changes.\n',
        '.cove/personas/writer.md': '---\ndescription: Writes documentation\n---\nYou write docs.\n',
        '.cove/personas/broken.md': '---\nname: broken\ndescription: never closed\n',
      });
      await startSession(e2e, '');
      const picker = sessionHeader(page).getByRole('combobox', { name: /^Persona/ });
      await picker.waitFor();
      assert.deepEqual(await picker.locator('option').allTextContents(), ['None', 'reviewer', 'writer']);
      assert.equal(await picker.inputValue(), '');

      await picker.selectOption('reviewer');
      await e2e.waitForSessions((sessions) => sessions[0]?.persona === 'reviewer', 'the session acting as reviewer');
      assert.equal(await picker.inputValue(), 'reviewer');
      assert.equal(
        await sessionHeader(page)
          .locator('label', { has: page.getByRole('combobox', { name: /^Persona/ }) })
          .getAttribute('title'),
        'Reads and comments; never edits',
      );

      const warning = sessionHeader(page).getByText('1 persona file has a problem');
      await warning.click();
      await sessionHeader(page)
        .getByText(/broken\.md: the front matter opened with --- is never closed/)
        .waitFor();
      await page.screenshot({ path: join(SHOTS, 'persona-select.png'), clip: { x: 0, y: 0, width: 1280, height: 300 } });

      await picker.selectOption({ label: 'None' });
      await e2e.waitForSessions((sessions) => sessions[0]?.persona === null, 'the session without a persona');
    }));

  test('Settings lists the MCP servers: connected with tools, one waiting for approval, one failing with its stderr, and config problems', () =>
    withApp(browser, 'extras-mcp', modelScript, async (e2e) => {
      const { page } = e2e;
      const node = process.execPath;
      writeFiles(e2e.workspace, {
        '.mcp.json': JSON.stringify({
          mcpServers: {
            everything: { command: node, args: [EVERYTHING, 'stdio'] },
            unapproved: { command: node, args: ['-e', 'setInterval(() => {}, 1000)'] },
            broken: { command: node, args: ['-e', "console.error('broken: no API_TOKEN in the environment'); process.exit(3)"] },
          },
        }),
      });
      writeFiles(e2e.home.path, { 'mcp.json': '{ "mcpServers": ', 'settings.json': JSON.stringify({ enabledMcpjsonServers: ['everything', 'broken'] }) });
      await startSession(e2e, '');
      await page.setViewportSize({ width: 1280, height: 1500 });
      await page.getByRole('button', { name: 'Settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      const section = dialog.getByRole('region', { name: /^MCP servers/ });
      const servers = section.getByRole('list', { name: 'MCP servers' });

      const everything = servers.getByRole('listitem', { name: 'MCP server everything' });
      await everything.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
      await everything.getByText(/^\d+ tools$/).waitFor();
      await everything.getByText('stdio', { exact: true }).waitFor();

      const unapproved = servers.getByRole('listitem', { name: 'MCP server unapproved' });
      await unapproved.getByText('Not started', { exact: true }).waitFor();
      const approval = `approve it with cove approve --workspace ${e2e.workspace} or Approve in the app`;
      assert.ok(((await unapproved.textContent()) ?? '').includes(approval), 'the line to add is shown as main wrote it');

      const broken = servers.getByRole('listitem', { name: 'MCP server broken' });
      await broken.getByText('stderr', { exact: true }).click();
      await broken.getByRole('group', { name: 'stderr of broken' }).filter({ hasText: 'broken: no API_TOKEN in the environment' }).waitFor();

      await section.getByRole('list', { name: 'MCP configuration problems' }).filter({ hasText: 'mcp.json: is not valid JSON' }).waitFor();
      await section.getByRole('button', { name: 'Refresh' }).click();
      await everything.getByText('Connected', { exact: true }).waitFor();
      await section.scrollIntoViewIfNeeded();
      await dialog.screenshot({ path: join(SHOTS, 'settings-mcp.png') });
    }));
});
