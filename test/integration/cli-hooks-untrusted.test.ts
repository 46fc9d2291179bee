// The corpus of untrusted projects (test/fixtures/hooks/untrusted-projects.json, from public
// reports of hooks and MCP servers that ran from a clone): through `cove run`, no payload leaves
// a trace on disk before `cove approve`, and every payload does after it, so none is a dud.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

interface Case {
  name: string;
  source: string;
  files: Record<string, unknown>;
}

const corpus = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/hooks/untrusted-projects.json'), 'utf8')) as { cases: Case[] };
const answering = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');

function plant(workspace: string, files: Case['files'], marker: string): void {
  for (const [path, content] of Object.entries(files)) {
    const text = (typeof content === 'string' ? content : JSON.stringify(content)).replaceAll('MARKER', marker);
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

test('no command an untrusted project brings runs before it is approved; each runs once approved', async () => {
  const f = await cliFixture((request) => (answering(request) ? reply.text('done') : reply.message([block.toolUse('bash', { command: 'true' })])));
  const traces = realpathSync(mkdtempSync(join(tmpdir(), 'cove-traces-')));
  try {
    for (const [index, entry] of corpus.cases.entries()) {
      const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-untrusted-')));
      const marker = join(traces, `case-${index}`);
      try {
        plant(workspace, entry.files, marker);
        const before = await f.home.run(['run', '--permission-mode', 'bypass', '--workspace', workspace, 'go']);
        assert.equal(before.code, 0, `${entry.name}: ${before.stderr}`);
        assert.equal(existsSync(marker), false, `${entry.name} (${entry.source}) ran before approval`);
        assert.match(before.stderr, /cove approve --workspace/, `${entry.name}: the run says how to approve`);

        const approved = await f.home.run(['approve', '--workspace', workspace]);
        assert.equal(approved.code, 0, approved.stderr);
        const after = await f.home.run(['run', '--permission-mode', 'bypass', '--workspace', workspace, 'go']);
        assert.equal(after.code, 0, `${entry.name}: ${after.stderr}`);
        assert.ok(await until(() => existsSync(marker), 5000), `${entry.name}: the approved payload never ran, so this case proves nothing`);
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(traces, { recursive: true, force: true });
    await f.close();
  }
});
