/**
 * `secrets.files` in a settings file names more secret files (SPEC §7's "configured globs"): a
 * value of a file the glob matches is redacted from what `cove run` prints and stores, and the
 * same run without the setting shows it, so it is the setting that redacts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture, type CliFixture } from '../support/cove-cli';
import { openStore } from '../../electron/core/store';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost } from '../../electron/core/api/host';

const VALUE = 'Zq8vLm3xTq71RwKp';

function toolText(events: Array<{ type: string; result?: { content: Array<{ type: string; text?: string }> } }>): string {
  return events
    .filter((event) => event.type === 'toolExecutionEnd')
    .flatMap((event) => event.result!.content.map((part) => part.text ?? ''))
    .join('\n');
}

describe('configured secret file globs', () => {
  let fixture: CliFixture;

  before(async () => {
    fixture = await cliFixture((request) => {
      const last = request.body.messages.at(-1);
      if (Array.isArray(last?.content) && last.content.some((part) => part.type === 'tool_result')) return reply.text('done');
      return reply.message([block.toolUse('read_file', { path: 'notes.txt' }, { id: 'toolu_notes' })], { stopReason: 'tool_use' });
    });
    mkdirSync(join(fixture.workspace, 'config'));
    // Neither a secret file by name nor a value any built-in pattern knows: only the glob makes it secret.
    writeFileSync(join(fixture.workspace, 'config', 'deploy.yml'), `endpoint_code: ${VALUE}\n`);
    writeFileSync(join(fixture.workspace, 'notes.txt'), `the deploy code is ${VALUE}\n`);
  });
  after(() => fixture.close());

  async function run(): Promise<{ printed: string; stored: string }> {
    const result = await fixture.home.run(['run', '--json', '--workspace', fixture.workspace, 'read the notes'], { cwd: fixture.workspace });
    assert.equal(result.code, 0, result.stderr);
    const sessionId = result.events.find((event) => event.type === 'agentStart')!.sessionId;
    const store = openStore(fixture.home.path);
    try {
      return { printed: toolText(result.events as never), stored: JSON.stringify(store.loadEvents(sessionId)) + JSON.stringify(store.loadMessages(sessionId)) };
    } finally {
      store.close();
    }
  }

  test('without the setting the value is shown', async () => {
    const { printed } = await run();
    assert.ok(printed.includes(VALUE), printed);
  });

  test("a glob in the workspace's settings redacts the file's values everywhere", async () => {
    mkdirSync(join(fixture.workspace, '.cove'), { recursive: true });
    writeFileSync(join(fixture.workspace, '.cove', 'settings.json'), JSON.stringify({ secrets: { files: ['config/*.yml'] } }));
    const { printed, stored } = await run();
    assert.ok(!printed.includes(VALUE), printed);
    assert.match(printed, /the deploy code is \[REDACTED/);
    assert.ok(!stored.includes(VALUE), 'the store never saw the value');
  });

  test('a malformed glob list stops the run, naming the file and the field', async () => {
    const file = join(fixture.workspace, '.cove', 'settings.json');
    writeFileSync(file, JSON.stringify({ secrets: { files: 'config/*.yml' } }));
    const requests = fixture.server.requests.length;
    const result = await fixture.home.run(['run', '--workspace', fixture.workspace, 'read the notes'], { cwd: fixture.workspace });
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes(`${file}: secrets.files must be a list of globs`), result.stderr);
    assert.equal(fixture.server.requests.length, requests, 'nothing was sent');
  });

  test('the app host refuses the prompt naming the file too, before anything is sent', async () => {
    const file = join(fixture.workspace, '.cove', 'settings.json');
    writeFileSync(file, JSON.stringify({ secrets: { files: [''] } }));
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
    Object.assign(process.env, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fixture.server.url });
    const host = createHost({ dataDir: fixture.home.path, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(fixture.home.path), log: () => {} });
    try {
      const requests = fixture.server.requests.length;
      const created = await host.dispatch('session:create', { workspaces: [fixture.workspace] });
      assert.ok(created.ok, JSON.stringify(created));
      const sessionId = (created.value as { id: string }).id;
      const sent = await host.dispatch('session:send', { sessionId, text: 'read the notes' });
      assert.ok(!sent.ok && sent.error.message.startsWith(`${file}: secrets.files[0] must be a non-empty glob`), JSON.stringify(sent));
      assert.equal(fixture.server.requests.length, requests, 'nothing was sent');
    } finally {
      await host.close();
      for (const [name, value] of [
        ['ANTHROPIC_API_KEY', saved.key],
        ['ANTHROPIC_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
