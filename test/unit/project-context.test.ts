import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { openStore } from '../../electron/core/store';
import { builtinTools } from '../../electron/core/tools/registry';
import { MAX_FILE_BYTES } from '../../electron/core/project/instructions';
import { loadPersonas } from '../../electron/core/project/personas';
import { parseFrontMatter } from '../../electron/core/project/front-matter';
import { block, reply, startModelServer, type Script } from '../support/model-server';

async function setup(script: Script, files: Record<string, string>) {
  const server = await startModelServer(script);
  const dir = mkdtempSync(join(tmpdir(), 'cove-project-'));
  const workspace = join(dir, 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(workspace, name, '..'), { recursive: true });
    writeFileSync(join(workspace, name), content);
  }
  mkdirSync(workspace, { recursive: true });
  const store = openStore(join(dir, 'home'));
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => builtinTools(),
  });
  const session = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'default' });
  return {
    server,
    manager,
    session,
    async close() {
      await manager.stopAll();
      store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const systemOf = (body: { system?: unknown }) => (Array.isArray(body.system) ? body.system.map((b: { text: string }) => b.text).join('\n') : String(body.system ?? ''));
const toolsOf = (body: { tools?: Array<{ name: string }> }) => (body.tools ?? []).map((t) => t.name);

test('AGENTS.md and CLAUDE.md go into the system prompt, each capped', async () => {
  const s = await setup([reply.text('ok')], {
    'AGENTS.md': 'Always run npm test before saying done.',
    'CLAUDE.md': `Use tabs.\n${'x'.repeat(MAX_FILE_BYTES + 500)}`,
  });
  try {
    await s.manager.run(s.session.id, 'hi');
    const system = systemOf(s.server.requests[0]!.body);
    assert.match(system, /Always run npm test before saying done/);
    assert.match(system, /Use tabs/);
    assert.match(system, /cut: the file has \d+ bytes/);
    assert.ok(system.length < MAX_FILE_BYTES * 2 + 5000);
  } finally {
    await s.close();
  }
});

test('skills are listed in the system prompt and loaded on demand by the skill tool', async () => {
  const s = await setup([reply.message([block.toolUse('skill', { name: 'release' })]), reply.text('ok')], {
    '.cove/skills/release/SKILL.md': '---\nname: release\ndescription: How to cut a release\n---\nStep 1: bump the version.\nStep 2: tag it.',
    '.cove/skills/release/checklist.md': '- changelog',
  });
  try {
    await s.manager.run(s.session.id, 'cut a release');
    const first = s.server.requests[0]!.body;
    assert.match(systemOf(first), /- release: How to cut a release/);
    assert.ok(toolsOf(first as never).includes('skill'));
    assert.ok(!systemOf(first).includes('Step 1'), 'the body is loaded only on demand');
    const result = JSON.stringify(s.server.requests[1]!.body.messages.at(-1)!.content);
    assert.match(result, /Step 1: bump the version/);
    assert.match(result, /checklist\.md/);
  } finally {
    await s.close();
  }
});

test('a persona filters the tools offered at each turn and adds its prompt', async () => {
  const s = await setup([reply.text('first'), reply.text('second')], {
    '.cove/personas/reviewer.md': '---\nname: reviewer\ndescription: Reads and comments\ntools: [read_file, search]\n---\nYou review code; you never change it.',
  });
  try {
    await s.manager.run(s.session.id, 'as yourself');
    assert.ok(toolsOf(s.server.requests[0]!.body as never).includes('bash'));
    s.manager.setPersona(s.session.id, 'reviewer');
    await s.manager.run(s.session.id, 'as the reviewer');
    const second = s.server.requests[1]!.body;
    assert.deepEqual(toolsOf(second as never), ['read_file', 'search']);
    assert.match(systemOf(second), /persona "reviewer"/);
    assert.match(systemOf(second), /you never change it/);
    assert.throws(() => s.manager.setPersona(s.session.id, 'nobody'), /no persona named 'nobody'/);
  } finally {
    await s.close();
  }
});

test('broken definition files are reported with their path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-personas-'));
  try {
    mkdirSync(join(dir, '.cove', 'personas'), { recursive: true });
    writeFileSync(join(dir, '.cove', 'personas', 'open.md'), '---\nname: open\nno closing');
    writeFileSync(join(dir, '.cove', 'personas', 'bad name.md'), '---\nname: bad name!\n---\nx');
    const { personas, problems } = loadPersonas([dir]);
    assert.equal(personas.length, 0);
    assert.equal(problems.length, 2);
    assert.ok(problems.some((p) => p.includes('open.md') && p.includes('never closed')));
    assert.ok(problems.some((p) => p.includes('bad name.md')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('front matter: strings, inline lists, dash lists, and unknown lines refused', () => {
  const parsed = parseFrontMatter('---\nname: "x"\ntools:\n  - read_file\n  - bash\nmodel: [a, b]\n---\nBody here', 'f.md');
  assert.deepEqual(parsed.fields, { name: 'x', tools: ['read_file', 'bash'], model: ['a', 'b'] });
  assert.equal(parsed.body, 'Body here');
  assert.throws(() => parseFrontMatter('---\njust text\n---\n', 'g.md'), /g\.md: line 2/);
});
