/**
 * The bash tool inside real bubblewrap: what happens when the sandbox fails for one call, and
 * that stopping a command reaches processes that left its process group.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ToolError, type ToolContext } from '../../electron/core/agent/types';
import { sandboxArgv, sandboxAvailability } from '../../electron/core/bash-sandbox';
import { spawnSync } from 'node:child_process';
import { createBashTool, type BashDetails } from '../../electron/core/tools/bash';
import { runningWith } from '../support/processes';
import { makeContext } from './helpers/tool-context';

const availability = sandboxAvailability();
const skip = availability.available ? false : `no sandbox can run on this machine: ${availability.available ? '' : availability.reason}`;

let root: string;
/** A COVE_HOME whose settings turn the sandbox off. */
let offHome: string;
before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-sandbox-run-')));
  offHome = mkdtempSync(join(tmpdir(), 'cove-sandbox-off-'));
  writeFileSync(join(offHome, 'settings.json'), JSON.stringify({ sandbox: { enabled: false } }));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(offHome, { recursive: true, force: true });
});

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((part) => part.text ?? '').join('');
}

function context(controller = new AbortController(), onChunk: (text: string) => void = () => {}): ToolContext {
  return { ...makeContext([root]), toolName: 'bash', signal: controller.signal, onUpdate: (partial) => onChunk((partial.details as { chunk: string }).chunk) };
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('bash in the sandbox', { skip }, () => {
  test('a sandbox that fails to start for one call fails that call with the reason and runs nothing', async () => {
    // The real bwrap, passing the start-up probe but given a bind whose source is missing for commands.
    const wrapper = join(root, 'bwrap-failing');
    writeFileSync(wrapper, `#!/bin/sh\ncase "$*" in *"exit 0"*) exec bwrap "$@";; esac\nexec bwrap --bind ${join(root, 'no-such-source')} /mnt "$@"\n`);
    chmodSync(wrapper, 0o755);
    const tool = createBashTool({ sandbox: { environment: { ...process.env, COVE_BWRAP: wrapper } } });
    const error = await rejection(tool.execute({ command: `touch ${join(root, 'ran-anyway')}` }, context()));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /^The bash sandbox \(bubblewrap\) failed to start, so the command did not run: bwrap: Can't find source path .*no-such-source/);
    assert.equal(existsSync(join(root, 'ran-anyway')), false);
  });

  test('a protected path that cannot be held fails the call before anything runs', async () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-sandbox-link-')));
    try {
      symlinkSync(join(workspace, 'missing-target'), join(workspace, '.npmrc'));
      const error = await rejection(createBashTool().execute({ command: 'touch ran-anyway' }, { ...context(), workspaceRoots: [workspace], cwd: workspace }));
      assert.match(error.message, /^The bash sandbox could not be set up, so the command did not run: the protected path .*\.npmrc is a symbolic link to something missing/);
      assert.equal(existsSync(join(workspace, 'ran-anyway')), false);
      assert.equal(existsSync(join(workspace, 'missing-target')), false);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  test('stopping a command also ends a daemon that left its process group with setsid', async () => {
    const controller = new AbortController();
    const sleep = `1000.${process.pid}77`;
    let seen = '';
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const running = createBashTool().execute(
      { command: `setsid sleep ${sleep} & echo started; wait` },
      context(controller, (text) => {
        seen += text;
        if (seen.includes('started')) started();
      }),
    );
    await ready;
    while (runningWith(sleep).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await rejection(running);
    assert.deepEqual(runningWith(sleep), []);
  });

  test('no capability is left to remount the file system writable, even as root', async () => {
    const outside = realpathSync(mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : homedir(), 'cove-sandbox-remount-')));
    try {
      const result = await createBashTool().execute(
        { command: `mount -o remount,rw / ; mount -o remount,rw ${outside} ; touch ${outside}/escaped; grep CapEff /proc/self/status` },
        context(),
      );
      assert.equal(existsSync(join(outside, 'escaped')), false);
      assert.match(result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''), /CapEff:\s+0+\n/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("the user's runtime folder (D-Bus, container engines) is out of reach", async () => {
    const runtime = `/run/user/${process.getuid!()}`;
    const made = !existsSync(runtime);
    if (made) mkdirSync(runtime, { recursive: true, mode: 0o700 });
    const socketPath = join(runtime, `cove-sandbox-test-${process.pid}.sock`);
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const probe = `require('net').connect(${JSON.stringify(socketPath)}).on('connect', () => console.log('connected')).on('error', (e) => console.log('refused', e.code))`;
      const bare = await createBashTool({ sandbox: { coveHome: offHome } }).execute({ command: `node -e ${JSON.stringify(probe)}` }, context());
      assert.match(textOf(bare), /connected/, 'reachable without the sandbox');
      const before = connections;
      const sandboxed = await createBashTool().execute({ command: `node -e ${JSON.stringify(probe)}` }, context());
      assert.match(textOf(sandboxed), /refused ENOENT/);
      assert.equal(connections, before);
    } finally {
      server.close();
      if (made) rmSync(runtime, { recursive: true, force: true });
    }
  });

  test('the result says which sandbox ran the command', async () => {
    const result = await createBashTool().execute({ command: 'true' }, context());
    assert.equal((result.details as BashDetails).sandbox, 'bubblewrap');
  });
});

describe('sandboxArgv, for other commands in the sandbox', { skip }, () => {
  test('a wrapped argv runs inside the sandbox and its placeholders go on release', async () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-sandbox-argv-')));
    const outside = realpathSync(mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : homedir(), 'cove-sandbox-argv-outside-')));
    try {
      const wrapped = sandboxArgv(['/bin/sh', '-c', `touch inside; touch ${outside}/escaped; echo done`], { workspaceRoots: [workspace], cwd: workspace });
      assert.equal(wrapped.state, 'on');
      if (wrapped.state !== 'on') return;
      const run = spawnSync(wrapped.file, wrapped.args, { cwd: workspace, encoding: 'utf8' });
      wrapped.release();
      assert.equal(run.stdout, 'done\n');
      assert.match(run.stderr, /Read-only file system/);
      assert.equal(existsSync(join(outside, 'escaped')), false);
      assert.deepEqual(readdirSync(workspace), ['inside']);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('off in settings it is the argv as it is; where none can run it says why', () => {
    const off = sandboxArgv(['/bin/true', 'x'], { workspaceRoots: [root], cwd: root, coveHome: offHome });
    assert.deepEqual(off.state === 'off' && [off.file, off.args], ['/bin/true', ['x']]);
    const none = sandboxArgv(['/bin/true'], { workspaceRoots: [root], cwd: root, environment: { ...process.env, COVE_BWRAP: join(root, 'no-such-bwrap') } });
    assert.match(none.state === 'unavailable' ? none.reason : '', /bubblewrap is not installed/);
  });
});
