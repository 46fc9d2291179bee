// Tool cards in Chromium, end to end through `cove serve` and the scripted model: read-only
// calls grouped on one line, a command that exits 2 shown as Failed, no model-facing markers,
// syntax colour after the highlighter's lazy load, and copy buttons that fill the clipboard.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { block, reply, type Reply } from '../support/model-server';
import type { RecordedRequest } from '../support/model-server';
import { launchChromium, skipReason, startSession, withApp, type E2E } from './support';

const skip = skipReason();

const PROMPT = 'Check the calculator';
const FAILING_COMMAND = 'echo "checking calc"; exit 2';
const CALC = 'export function add(a, b) {\n  // adds two numbers\n  return a + b;\n}\n';
const ANSWER = 'The check failed with exit 2.\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```';

function toolResults(request: RecordedRequest): number {
  return request.body.messages.reduce((count, message) => (typeof message.content === 'string' ? count : count + message.content.filter((part) => part.type === 'tool_result').length), 0);
}

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const MCP_PROMPT = 'Echo it through the server';
const MCP_MESSAGE = 'first line\nsecond line';
const ASK_PROMPT = 'Ask before you run it';
const ASKED_COMMAND = 'echo "from the prompt"';

function script(request: RecordedRequest): Reply {
  const step = toolResults(request);
  const first = JSON.stringify(request.body.messages[0]?.content ?? '');
  if (first.includes(MCP_PROMPT)) return step === 0 ? reply.message([block.toolUse('mcp__everything__echo', { message: MCP_MESSAGE })]) : reply.text('Echoed.');
  if (first.includes(ASK_PROMPT)) {
    return step === 0 ? reply.message([block.toolUse('bash', { command: ASKED_COMMAND, timeout: 20 })]) : reply.text('It ran.');
  }
  if (step === 0) {
    return reply.message([
      block.text('Looking around first.'),
      block.toolUse('read_file', { path: 'src/calc.js' }),
      block.toolUse('read_file', { path: 'README.md' }),
      block.toolUse('read_file', { path: 'src/missing.js' }),
      block.toolUse('search', { pattern: 'add', path: 'src' }),
    ]);
  }
  if (step === 4) return reply.message([block.toolUse('bash', { command: FAILING_COMMAND })]);
  return reply.text(ANSWER);
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

async function highlighterRequested(page: Page): Promise<boolean> {
  return page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/chunks/highlight-engine-')));
}

async function runToTheEnd(e2e: E2E, prompt = PROMPT, answer = 'The check failed with exit 2.'): Promise<void> {
  const { page } = e2e;
  await startSession(e2e, '');
  await page.getByRole('combobox', { name: /^Permission mode/ }).selectOption({ label: 'Bypass (never ask)' });
  await e2e.waitForSessions((sessions) => sessions[0]?.permissionMode === 'bypass', 'the session in bypass mode');
  await page.getByRole('textbox', { name: 'Message' }).fill(prompt);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: answer }).waitFor({ timeout: 30_000 });
}

describe('tool cards that tell the truth', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('reads are grouped, a failing command is Failed, no markers show, code is coloured, and copying works', () =>
    withApp(browser, 'tool-cards', script, async (e2e) => {
      const { page } = e2e;
      mkdirSync(join(e2e.workspace, 'src'));
      writeFileSync(join(e2e.workspace, 'src/calc.js'), CALC);
      writeFileSync(join(e2e.workspace, 'README.md'), '# Calculator\n\nIt can add.\n');
      await e2e.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(e2e.serve.url).origin });
      assert.equal(await highlighterRequested(page), false, 'the highlighter is not part of the first load');

      await runToTheEnd(e2e);

      // The four read-only calls are one line until opened.
      const group = page.getByRole('group', { name: 'Read 3 files, 1 search: 1 failed' });
      const toggle = group.getByRole('button', { name: /^Read 3 files, 1 search/ });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await group.getByRole('article').count(), 0, 'the single cards are folded away');
      await e2e.screenshot('tool-cards-1-grouped');
      await toggle.press('Enter');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.equal(await group.getByRole('article', { name: 'read_file tool: Done' }).count(), 2);
      await group.getByRole('article', { name: 'search tool: Done' }).waitFor();
      assert.equal(await group.locator('.tool-header .tool-icon').first().textContent(), '✕', 'a failure in the group shows on its line');
      // A read of a missing file is an error result: Failed, with a red cross and its reason in view.
      const missing = group.getByRole('article', { name: 'read_file tool: Failed' });
      assert.equal(await missing.locator('.tool-icon').textContent(), '✕');
      await missing.getByRole('group', { name: 'read_file error' }).filter({ hasText: 'src/missing.js' }).waitFor();

      // A read shows the file as a file: a gutter, syntax colour, no `[path#tag]` header.
      const calcCard = group.getByRole('article', { name: 'read_file tool: Done' }).filter({ hasText: 'src/calc.js' });
      await calcCard.getByRole('button', { name: /^Read file src\/calc\.js/ }).click();
      const fileView = calcCard.getByRole('group', { name: 'read_file output' });
      await fileView.locator('.hljs-keyword').first().waitFor();
      assert.equal(await fileView.getAttribute('data-highlighted'), 'javascript');
      const shown = (await calcCard.textContent()) ?? '';
      assert.doesNotMatch(shown, /#[0-9a-z]{6}\]|Tag:|│/, 'no tag or gutter separator written for the model');
      assert.match(shown, /adds two numbers/);
      assert.equal(await fileView.locator('.code-gutter').first().textContent(), '1');

      // The command that exited 2 is Failed with a red cross, never Done with a tick.
      const bash = page.getByRole('article', { name: 'bash tool: Failed (exit 2)' });
      await bash.waitFor();
      assert.equal(await bash.locator('.tool-icon').textContent(), '✕');
      assert.equal(await bash.locator('.tool-state').textContent(), 'Failed (exit 2)');
      assert.equal(await bash.getByText('exit 0').count(), 0);
      assert.equal(await bash.locator('.tool-toggle').getAttribute('aria-expanded'), 'true', 'a command shows its terminal');
      await bash.getByText('checking calc').first().waitFor();

      await bash.getByRole('button', { name: 'Copy command' }).click();
      await bash.getByRole('status').filter({ hasText: 'Copied command' }).waitFor();
      assert.equal(await clipboard(page), FAILING_COMMAND);
      await bash.getByRole('button', { name: 'Copy output' }).click();
      assert.equal((await clipboard(page)).trim(), 'checking calc', 'the output without the [exit code] trailer');

      // The reply's code block is highlighted once the lazily loaded highlighter is in.
      const answer = page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'The check failed with exit 2.' });
      const code = answer.locator('.code-block pre');
      await code.locator('.hljs-keyword').first().waitFor();
      assert.equal(await code.getAttribute('data-highlighted'), 'ts');
      assert.equal(await highlighterRequested(page), true, 'the highlighter chunk was fetched on first use');
      // Copy sits on the speaker's line, not on a blank row of its own under every message.
      for (const message of [answer, page.getByRole('article', { name: 'Your message' }).first()]) {
        const speaker = await message.locator('.speaker').boundingBox();
        const copy = await message.getByRole('button', { name: 'Copy message' }).boundingBox();
        assert.ok(speaker && copy && copy.y < speaker.y + speaker.height, `Copy is on the speaker's line: ${JSON.stringify({ speaker, copy })}`);
      }
      await answer.getByRole('button', { name: 'Copy message' }).click();
      assert.equal(await clipboard(page), ANSWER);
      await answer.getByRole('button', { name: 'Copy ts block' }).click();
      assert.equal(await clipboard(page), 'export function add(a: number, b: number): number {\n  return a + b;\n}');
      await e2e.screenshot('tool-cards-2-wide');

      await page.setViewportSize({ width: 900, height: 700 });
      await bash.scrollIntoViewIfNeeded();
      await e2e.screenshot('tool-cards-3-900x700');
      await page.emulateMedia({ colorScheme: 'dark' });
      await e2e.screenshot('tool-cards-4-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 860 });

      // A stored session draws the same: grouped, Failed.
      await page.reload();
      await page
        .getByRole('list', { name: 'Session list' })
        .getByRole('button', { name: new RegExp(`^${PROMPT}`) })
        .click();
      await page.getByRole('group', { name: 'Read 3 files, 1 search: 1 failed' }).waitFor();
      await page.getByRole('article', { name: 'bash tool: Failed (exit 2)' }).waitFor();
    }));

  test('a permission prompt renders its reasons’ Markdown and its arguments per tool, not as JSON', () =>
    withApp(browser, 'tool-cards-prompt', script, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, ASK_PROMPT);
      const prompt = page.getByRole('article', { name: 'Permission request: bash' });
      const reasons = prompt.getByRole('list', { name: 'Why Cove asks' });
      // The reason names the command by its words, in backticks, which must come out as code.
      await reasons.locator('code').filter({ hasText: 'echo from the prompt' }).waitFor();
      assert.doesNotMatch((await reasons.textContent()) ?? '', /`/, 'no raw backticks');
      await prompt.getByRole('button', { name: 'Show arguments' }).click();
      const args = prompt.getByRole('group', { name: 'bash arguments' });
      assert.equal(await args.locator('.argument-code').textContent(), `${ASKED_COMMAND}\n`);
      assert.match((await args.textContent()) ?? '', /timeout\s*20/);
      assert.doesNotMatch((await args.textContent()) ?? '', /[{}]|\\n/, 'not JSON');
      await e2e.screenshot('tool-cards-5-prompt');
      await prompt.getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: 'bash tool: Done' }).waitFor({ timeout: 20_000 });
    }));

  test('an MCP tool’s arguments are names and values, a multi-line value a block, never JSON with \\n', () =>
    withApp(browser, 'tool-cards-mcp', script, async (e2e) => {
      const { page } = e2e;
      writeFileSync(join(e2e.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
      writeFileSync(join(e2e.home.path, 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['everything'] }));
      await runToTheEnd(e2e, MCP_PROMPT, 'Echoed.');
      const card = page.getByRole('article', { name: /^mcp__everything__echo tool: Done/ });
      await card.locator('.tool-toggle').click();
      const args = card.getByRole('group', { name: 'mcp__everything__echo arguments' });
      assert.equal(await args.locator('.argument-name').first().textContent(), 'message');
      assert.equal(await args.locator('pre.argument-value').textContent(), MCP_MESSAGE);
      assert.doesNotMatch((await args.textContent()) ?? '', /\\n|[{}"]/, 'not JSON');
      await e2e.screenshot('tool-cards-6-mcp');
    }));
});
