// Approving a project's hooks and MCP servers in the app, in Chromium through `cove serve`: the
// notice shows what would run, nothing of it runs before Approve, both run after it, and a
// changed hook asks again. A screenshot goes to /tmp/cove-shots/ for a person to look at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { modelScript, PROMPTS } from './model-script';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();
const SHOTS = '/tmp/cove-shots';
const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

function hookScript(folder: string, name: string, says: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.mjs`);
  writeFileSync(path, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(`${path}.ran`)}, 'yes');\nprocess.stdout.write(${JSON.stringify(says)});\n`);
  return `'${process.execPath}' '${path}'`;
}

function writeProjectHook(workspace: string, command: string): void {
  mkdirSync(join(workspace, '.cove'), { recursive: true });
  writeFileSync(join(workspace, '.cove', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }));
}

describe('approving project hooks and MCP servers in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('the notice lists what would run; nothing runs before Approve; both run after; a changed hook asks again', () =>
    withApp(browser, 'project-approvals', modelScript, async (e2e) => {
      const { page, workspace } = e2e;
      const hooks = join(workspace, '.hooks');
      const command = hookScript(hooks, 'context', 'The project builds with pnpm.');
      writeProjectHook(workspace, command);
      writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));

      await startSession(e2e, PROMPTS.hello);
      const notice = page.getByRole('region', { name: `Project hooks and MCP servers of ${workspace}` });
      const waiting = notice.getByRole('list', { name: 'Waiting for approval' });
      const hook = waiting.getByRole('listitem', { name: 'Hook UserPromptSubmit' });
      await hook.waitFor();
      assert.ok(((await hook.textContent()) ?? '').includes(command), 'the command line is shown');
      assert.ok(((await hook.textContent()) ?? '').includes(join(workspace, '.cove', 'settings.json')), 'and the file that declares it');
      const server = waiting.getByRole('listitem', { name: 'MCP server everything' });
      assert.ok(((await server.textContent()) ?? '').includes(EVERYTHING));

      await page.getByRole('article', { name: 'Your message' }).first().waitFor();
      await e2e.waitForSessions((sessions) => sessions.some((session) => session.status === 'done'), 'a finished first run');
      assert.equal(existsSync(join(hooks, 'context.mjs.ran')), false, 'the unapproved hook did not run');
      const first = e2e.model.requests[0]!.body;
      assert.doesNotMatch(JSON.stringify(first.messages), /builds with pnpm/);
      assert.ok(!(first.tools ?? []).some((tool) => (tool as { name: string }).name.startsWith('mcp__')), 'the unapproved server was not offered');

      await page.screenshot({ path: join(SHOTS, 'project-approvals.png') });
      await notice.getByRole('button', { name: 'Approve these 2' }).click();
      await notice.waitFor({ state: 'detached' });
      const approvals = JSON.parse(readFileSync(join(e2e.home.path, 'approvals.json'), 'utf8')) as { approved: Record<string, { kind: string }> };
      assert.deepEqual(
        Object.values(approvals.approved)
          .map((item) => item.kind)
          .sort(),
        ['hook', 'mcpServer'],
      );

      await page.getByRole('textbox', { name: 'Message' }).fill(`${PROMPTS.hello} once more`);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('note', { name: 'UserPromptSubmit hook ran' }).waitFor();
      await e2e.waitForSessions(() => e2e.model.requests.length >= 2, 'a second request');
      const second = e2e.model.requests[1]!.body;
      assert.match(JSON.stringify(second.messages), /builds with pnpm/);
      assert.ok(
        (second.tools ?? []).some((tool) => (tool as { name: string }).name.startsWith('mcp__everything__')),
        'the approved server was offered',
      );

      const changed = hookScript(hooks, 'changed', 'Something else.');
      writeProjectHook(workspace, changed);
      await page.reload();
      const again = page.getByRole('region', { name: `Project hooks and MCP servers of ${workspace}` });
      const pending = again.getByRole('list', { name: 'Waiting for approval' }).getByRole('listitem');
      await pending.first().waitFor();
      assert.equal(await pending.count(), 1, 'only the changed hook asks again');
      assert.ok(((await pending.first().textContent()) ?? '').includes(changed));
      await again.getByRole('button', { name: 'Approve it' }).waitFor();
    }));
});
