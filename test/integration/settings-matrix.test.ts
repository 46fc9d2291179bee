/**
 * Settings files × hosts: for each set of settings files, `cove run` (the built command, a child
 * process) and the host behind `cove serve` and the desktop app (createHost, driven through its
 * contract) run the same scripted turn against the scripted model server. Both must decide the
 * same: the model the request names, the session's permission mode, allow / ask / deny for each
 * tool call (from the permission audit each host stores), and whether the bash sandbox stopped a
 * write outside the workspace (checked on disk). Each host's answers are also checked against
 * what the settings say, so two hosts wrong in the same way fail too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost } from '../../electron/core/api/host';
import { DEFAULT_MODEL } from '../../electron/core/agent/pricing';
import { sandboxAvailability } from '../../electron/core/bash-sandbox';
import { openStore } from '../../electron/core/store';
import { CoveHome } from '../support/cove-cli';
import { block, reply, startModelServer, type RecordedRequest, type ScriptedServer } from '../support/model-server';

type Outcome = 'allow' | 'ask' | 'deny';

interface Decisions {
  model: string;
  mode: string;
  calls: Record<string, Outcome>;
  /** Did the write outside every root land on disk? */
  outsideWritten: boolean;
}

interface Scenario {
  name: string;
  files: Partial<Record<'user' | 'claude' | 'project' | 'local', unknown>>;
  /** What the settings say both hosts must decide; the sandbox column only where it can be seen. */
  expected: Omit<Decisions, 'outsideWritten'> & { outsideWritten?: boolean };
  needsSandbox?: boolean;
}

const sandbox = sandboxAvailability();

const scenarios: Scenario[] = [
  {
    name: 'no settings files',
    files: {},
    expected: { model: DEFAULT_MODEL, mode: 'default', calls: { read: 'allow', write: 'ask', remove: 'ask', echo: 'ask' } },
  },
  {
    name: "the person's file sets model, mode and rules",
    files: { user: { model: 'claude-user-choice', defaultMode: 'acceptEdits', permissions: { allow: ['bash(echo hi)'], deny: ['bash(rm:*)'] } } },
    expected: { model: 'claude-user-choice', mode: 'acceptEdits', calls: { read: 'allow', write: 'allow', remove: 'deny', echo: 'allow' } },
  },
  {
    name: "the workspace's files override the person's model and mode, and Claude Code's rules apply",
    files: {
      user: { model: 'claude-user-choice', defaultMode: 'acceptEdits' },
      claude: { model: 'claude-code-alias', permissions: { allow: ['Bash(echo hi)'] } },
      project: { model: 'claude-project-choice', defaultMode: 'default', permissions: { ask: ['read_file(notes.txt)'] } },
      local: { permissions: { deny: ['write_file'] } },
    },
    expected: { model: 'claude-project-choice', mode: 'default', calls: { read: 'ask', write: 'deny', remove: 'ask', echo: 'allow' } },
  },
  {
    name: 'a workspace tightens the mode to plan',
    files: { user: { defaultMode: 'acceptEdits', permissions: { allow: ['bash(echo hi)'] } }, local: { defaultMode: 'plan' } },
    expected: { model: DEFAULT_MODEL, mode: 'plan', calls: { read: 'allow', write: 'deny', remove: 'deny', echo: 'deny' } },
  },
  {
    name: "the person's bypass with the sandbox on: the write outside is stopped by the sandbox",
    files: { user: { defaultMode: 'bypass' } },
    expected: { model: DEFAULT_MODEL, mode: 'bypass', calls: { read: 'allow', write: 'allow', remove: 'allow', echo: 'allow', outside: 'allow' }, outsideWritten: false },
    needsSandbox: true,
  },
  {
    name: "the person's bypass with the sandbox off in their own file: the write outside lands",
    files: { user: { defaultMode: 'bypass', sandbox: { enabled: false } } },
    expected: { model: DEFAULT_MODEL, mode: 'bypass', calls: { read: 'allow', write: 'allow', remove: 'allow', echo: 'allow', outside: 'allow' }, outsideWritten: true },
  },
];

/** Outside every writable folder of the sandbox: not a root, not the system temp folder. */
function outsideFolder(): string {
  const base = existsSync('/var/tmp') ? '/var/tmp' : homedir();
  return realpathSync(mkdtempSync(join(base, 'cove-matrix-outside-')));
}

const CALL_IDS = { read: 'toolu_read', write: 'toolu_write', remove: 'toolu_remove', echo: 'toolu_echo', outside: 'toolu_outside' } as const;

function hasToolResults(request: RecordedRequest): boolean {
  const last = request.body.messages.at(-1);
  return Array.isArray(last?.content) && last.content.some((part) => part.type === 'tool_result');
}

/** One turn of five tool calls, then a closing reply; `marker` is where the hidden write goes. */
function script(marker: () => string) {
  return (request: RecordedRequest) => {
    if (hasToolResults(request)) return reply.text('done');
    return reply.message(
      [
        block.toolUse('read_file', { path: 'notes.txt' }, { id: CALL_IDS.read }),
        block.toolUse('write_file', { path: 'out.txt', content: 'written' }, { id: CALL_IDS.write }),
        block.toolUse('bash', { command: 'rm -f gone.txt' }, { id: CALL_IDS.remove }),
        block.toolUse('bash', { command: 'echo hi' }, { id: CALL_IDS.echo }),
        // A write the permission engine cannot read as one: only the sandbox can stop it.
        block.toolUse('bash', { command: `node -e ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(marker())}, 'x')`)}` }, { id: CALL_IDS.outside }),
      ],
      { stopReason: 'tool_use' },
    );
  };
}

function outcomes(audit: Array<{ toolCallId: string; decision: 'allow' | 'deny'; decidedBy: string }>): Record<string, Outcome> {
  const calls: Record<string, Outcome> = {};
  for (const [name, id] of Object.entries(CALL_IDS)) {
    const entry = audit.find((record) => record.toolCallId === id);
    // Read-only calls that run without a question may go unaudited: they were allowed.
    calls[name] = !entry ? 'allow' : entry.decidedBy === 'person' || entry.decidedBy === 'headless' ? 'ask' : entry.decision;
  }
  return calls;
}

interface World {
  server: ScriptedServer;
  home: CoveHome;
  workspace: string;
  outside: string;
  marker: string;
}

function writeFiles(world: World, files: Scenario['files']): void {
  const paths = {
    user: join(world.home.path, 'settings.json'),
    claude: join(world.workspace, '.claude', 'settings.json'),
    project: join(world.workspace, '.cove', 'settings.json'),
    local: join(world.workspace, '.cove', 'settings.local.json'),
  };
  for (const [kind, content] of Object.entries(files)) {
    const path = paths[kind as keyof typeof paths];
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(content));
  }
  writeFileSync(join(world.workspace, 'notes.txt'), 'notes\n');
  writeFileSync(join(world.workspace, 'gone.txt'), 'to remove\n');
}

async function throughCoveRun(world: World): Promise<Decisions> {
  const requestsBefore = world.server.requests.length;
  const result = await world.home.run(['run', '--json', '--workspace', world.workspace, 'do the five things'], { cwd: world.workspace });
  assert.equal(result.code, 0, `cove run failed: ${result.stderr}`);
  const sessionId = result.events.find((event) => event.type === 'agentStart')?.sessionId;
  assert.ok(sessionId, 'cove run --json printed the session');
  const store = openStore(world.home.path);
  try {
    const session = store.getSession(sessionId)!;
    return {
      model: world.server.requests[requestsBefore]!.body.model,
      mode: session.permissionMode,
      calls: outcomes(store.listPermissions(sessionId)),
      outsideWritten: existsSync(world.marker),
    };
  } finally {
    store.close();
  }
}

async function throughHost(world: World): Promise<Decisions> {
  const requestsBefore = world.server.requests.length;
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL, home: process.env.COVE_HOME };
  Object.assign(process.env, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: world.server.url, COVE_HOME: world.home.path });
  const host = createHost({ dataDir: world.home.path, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(world.home.path), log: () => {} });
  try {
    const created = await host.dispatch('session:create', { workspaces: [world.workspace] });
    assert.ok(created.ok, JSON.stringify(created));
    const session = created.value as { id: string; model: string; permissionMode: string };
    const ended = new Promise<void>((resolve) => {
      const stop = host.manager.subscribe((event: CoveEvent) => {
        if (event.sessionId !== session.id) return;
        // A person who says no to every question: the ask is what is measured.
        if (event.type === 'permissionRequest') void host.dispatch('permission:answer', { sessionId: session.id, requestId: event.requestId, decision: 'deny' });
        if (event.type === 'agentEnd') {
          stop();
          resolve();
        }
      });
    });
    const sent = await host.dispatch('session:send', { sessionId: session.id, text: 'do the five things' });
    assert.ok(sent.ok, JSON.stringify(sent));
    await ended;
    return {
      model: world.server.requests[requestsBefore]!.body.model,
      mode: session.permissionMode,
      calls: outcomes(host.store.listPermissions(session.id)),
      outsideWritten: existsSync(world.marker),
    };
  } finally {
    await host.close();
    for (const [name, value] of [
      ['ANTHROPIC_API_KEY', saved.key],
      ['ANTHROPIC_BASE_URL', saved.url],
      ['COVE_HOME', saved.home],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('settings files × hosts decide the same', () => {
  let server: ScriptedServer;
  let marker = '';
  const folders: string[] = [];

  before(async () => {
    server = await startModelServer(script(() => marker));
  });
  after(async () => {
    await server.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  for (const scenario of scenarios) {
    const skip = scenario.needsSandbox && !sandbox.available ? `no OS sandbox can run here: ${sandbox.available ? '' : sandbox.reason}` : false;
    test(scenario.name, { skip }, async () => {
      const decided: Record<string, Decisions> = {};
      for (const [hostName, run] of [
        ['cove run', throughCoveRun],
        ['createHost (cove serve, desktop)', throughHost],
      ] as const) {
        const home = new CoveHome(server.url);
        const workspace = realpathSync(mkdtempSync(join(home.path, '..', 'cove-matrix-ws-')));
        const outside = outsideFolder();
        folders.push(home.path, workspace, outside);
        marker = join(outside, 'marker');
        const world: World = { server, home, workspace, outside, marker };
        writeFiles(world, scenario.files);
        decided[hostName] = await run(world);
      }
      const [cli, app] = Object.values(decided) as [Decisions, Decisions];
      assert.deepEqual(app, cli, 'the app decides as cove run does');
      const { outsideWritten, ...expected } = scenario.expected;
      const { outsideWritten: written, ...seen } = cli;
      assert.deepEqual({ ...seen, calls: Object.fromEntries(Object.keys(expected.calls).map((name) => [name, seen.calls[name]])) }, expected);
      if (outsideWritten !== undefined) assert.equal(written, outsideWritten, 'the sandbox decided as the settings say');
      else assert.equal(written, false, 'a call that was not allowed wrote nothing');
    });
  }

  test("a workspace's bypass is refused by both hosts, naming the file, before anything runs", async () => {
    const home = new CoveHome(server.url);
    const workspace = realpathSync(mkdtempSync(join(home.path, '..', 'cove-matrix-ws-')));
    folders.push(home.path, workspace);
    const world: World = { server, home, workspace, outside: workspace, marker: join(workspace, 'marker') };
    writeFiles(world, { project: { defaultMode: 'bypass' } });
    const file = join(workspace, '.cove', 'settings.json');
    const requestsBefore = server.requests.length;
    const result = await home.run(['run', '--workspace', workspace, 'anything'], { cwd: workspace });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: defaultMode "bypass"`));
    const host = createHost({ dataDir: home.path, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(home.path), log: () => {} });
    try {
      const created = await host.dispatch('session:create', { workspaces: [workspace] });
      assert.equal(created.ok, false);
      assert.ok(!created.ok && created.error.message.startsWith(`${file}: defaultMode "bypass"`), JSON.stringify(created));
      assert.equal(host.store.listSessions({ limit: 10 }).length, 0, 'no session was made');
    } finally {
      await host.close();
    }
    assert.equal(server.requests.length, requestsBefore, 'no request was sent');
  });
});
