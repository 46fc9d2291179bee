/**
 * The bash sandbox end to end: `cove run --permission-mode bypass` (so the permission engine
 * lets every command through and only the OS sandbox stands in the way) against the scripted
 * model server, real bubblewrap, real files and a real listener on 127.0.0.1.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { block, reply } from '../support/model-server';
import { COVE_BIN, cliFixture, collect } from '../support/cove-cli';
import { sandboxAvailability } from '../../electron/core/bash-sandbox';

const availability = sandboxAvailability();
const skip = availability.available ? false : `no sandbox can run on this machine: ${availability.available ? '' : availability.reason}`;

/** Outside every writable folder: not a root and not the system temp folder. */
function outsideFolder(): string {
  const base = existsSync('/var/tmp') ? '/var/tmp' : homedir();
  return realpathSync(mkdtempSync(join(base, 'cove-sandbox-outside-')));
}

/**
 * A write through node, which the permission engine cannot read as one: bypass lets it through,
 * so what stops it is the sandbox alone.
 */
function hiddenWrite(code: string): string {
  return `node -e ${JSON.stringify(code)}`;
}

function bashCall(id: string, command: string) {
  return block.toolUse('bash', { command }, { id });
}

/** Each tool result's text, by tool call id. */
function results(events: CoveEvent[]): Map<string, { text: string; isError: boolean }> {
  const found = new Map<string, { text: string; isError: boolean }>();
  for (const event of events) {
    if (event.type !== 'toolExecutionEnd') continue;
    const text = event.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    found.set(event.toolCallId, { text, isError: event.isError });
  }
  return found;
}

interface Listener {
  port: number;
  connections: number;
  server: Server;
}

function listen(): Promise<Listener> {
  return new Promise((resolve) => {
    const listener: Listener = {
      port: 0,
      connections: 0,
      server: createServer((socket) => {
        listener.connections++;
        socket.end('hello from the host\n');
      }),
    };
    listener.server.listen(0, '127.0.0.1', () => {
      listener.port = (listener.server.address() as { port: number }).port;
      resolve(listener);
    });
  });
}

describe('cove run: the bash sandbox', { skip }, () => {
  let outside: string;
  let listener: Listener;
  before(async () => {
    outside = outsideFolder();
    listener = await listen();
  });
  after(() => {
    rmSync(outside, { recursive: true, force: true });
    listener.server.close();
  });

  test('writes outside the roots, to protected files and connections are refused; work inside runs', async () => {
    const f = await cliFixture([
      reply.message([
        bashCall('inside', 'echo built > inside.txt && cat inside.txt'),
        bashCall('outside', `echo escaped > ${outside}/escaped.txt`),
        bashCall('envrc', hiddenWrite(`require('fs').writeFileSync('.envrc', 'export EVIL=1')`)),
        bashCall('cove', hiddenWrite(`const fs = require('fs'); fs.mkdirSync('.cove', { recursive: true }); fs.writeFileSync('.cove/settings.local.json', '{}')`)),
        bashCall('hooks', hiddenWrite(`require('fs').writeFileSync('.git/hooks/pre-commit', '#!/bin/sh\\ntouch pwned\\n')`)),
        bashCall('gitdir', hiddenWrite(`const fs = require('fs'); fs.renameSync('.git', '.git-away'); fs.mkdirSync('.git'); fs.writeFileSync('.git/config', '[core] fsmonitor = evil')`)),
        bashCall('network', `exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected`),
      ]),
      reply.text('done'),
    ]);
    try {
      mkdirSync(join(f.workspace, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(f.workspace, '.git', 'config'), '[core]\n');
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'try everything']);
      assert.equal(run.code, 0, run.stderr);
      const byId = results(run.events);

      assert.equal(readFileSync(join(f.workspace, 'inside.txt'), 'utf8'), 'built\n');
      assert.match(byId.get('inside')!.text, /built\n\[exit code 0\]/);

      assert.equal(existsSync(join(outside, 'escaped.txt')), false);
      assert.match(byId.get('outside')!.text, /Read-only file system/);
      assert.match(byId.get('outside')!.text, /\[sandbox\] The OS sandbox \(bubblewrap\) refused the write to .*escaped\.txt.*sandbox\.writable/);

      assert.equal(existsSync(join(f.workspace, '.envrc')), false, 'the placeholder of a missing protected file is removed');
      // The permission engine refuses protected writes it can read before the sandbox is reached (bash-parser).
      assert.match(byId.get('envrc')!.text, /\[sandbox\].*\.envrc is protected|the protected \.envrc/);

      assert.equal(existsSync(join(f.workspace, '.cove')), false);
      assert.match(byId.get('cove')!.text, /\[sandbox\]|the protected \.cove/);

      assert.equal(existsSync(join(f.workspace, '.git', 'hooks', 'pre-commit')), false);
      assert.match(byId.get('hooks')!.text, /\[sandbox\]|the protected \.git/);

      assert.equal(readFileSync(join(f.workspace, '.git', 'config'), 'utf8'), '[core]\n');
      assert.equal(existsSync(join(f.workspace, '.git-away')), false);
      assert.match(byId.get('gitdir')!.text, /EBUSY[\s\S]*\[sandbox\].*\.git is protected|the protected \.git/);

      assert.equal(listener.connections, 0);
      assert.match(byId.get('network')!.text, /Connection refused/);
      assert.match(byId.get('network')!.text, /\[sandbox\].*no network for bash.*"network": "all"/);
    } finally {
      await f.close();
    }
  });

  test('"network": "all" in the person\'s settings lets bash reach the listener', async () => {
    const f = await cliFixture([reply.message([bashCall('network', `exec 3<>/dev/tcp/127.0.0.1/${listener.port} && head -n 1 <&3`)]), reply.text('done')]);
    try {
      writeFileSync(join(f.home.path, 'settings.json'), JSON.stringify({ sandbox: { network: 'all' } }));
      const before = listener.connections;
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'connect']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(results(run.events).get('network')!.text, /hello from the host/);
      assert.equal(listener.connections, before + 1);
    } finally {
      await f.close();
    }
  });

  test('a host list fails closed: said once on stderr, and the network stays off', async () => {
    const f = await cliFixture([reply.message([bashCall('network', `exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected`)]), reply.text('done')]);
    try {
      writeFileSync(join(f.home.path, 'settings.json'), JSON.stringify({ sandbox: { network: ['localhost'] } }));
      const before = listener.connections;
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'connect']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr.match(/cannot filter by host yet/g)?.length, 1, run.stderr);
      assert.equal(listener.connections, before);
      assert.match(results(run.events).get('network')!.text, /host list in "sandbox.network" is not supported yet/);
    } finally {
      await f.close();
    }
  });

  test('a configured writable path is writable', async () => {
    const f = await cliFixture([reply.message([bashCall('write', `echo cached > ${outside}/cache.txt`)]), reply.text('done')]);
    try {
      writeFileSync(join(f.home.path, 'settings.json'), JSON.stringify({ sandbox: { writable: [outside] } }));
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'write']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(join(outside, 'cache.txt'), 'utf8'), 'cached\n');
    } finally {
      await f.close();
    }
  });
});

describe('cove run: no sandbox available', () => {
  test('says so once, and every bash call is denied with that reason, even in bypass', async () => {
    const f = await cliFixture([reply.message([bashCall('first', 'touch first-marker'), bashCall('second', 'touch second-marker')]), reply.text('done')]);
    try {
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch'], {
        env: { COVE_BWRAP: join(f.workspace, 'no-such-bwrap') },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr.match(/No OS sandbox can run for bash/g)?.length, 1, run.stderr);
      assert.match(run.stderr, /bubblewrap is not installed \(COVE_BWRAP=.*no-such-bwrap is not an executable file/);
      const byId = results(run.events);
      for (const id of ['first', 'second']) {
        assert.equal(byId.get(id)!.isError, true);
        assert.match(byId.get(id)!.text, /no OS sandbox can run here .*cove run has no one to ask, so it is denied/);
      }
      assert.equal(existsSync(join(f.workspace, 'first-marker')), false);
      assert.equal(existsSync(join(f.workspace, 'second-marker')), false);
    } finally {
      await f.close();
    }
  });

  test('"enabled": false runs bash without a sandbox and without the notice', async () => {
    const f = await cliFixture([reply.message([bashCall('first', 'touch first-marker')]), reply.text('done')]);
    try {
      writeFileSync(join(f.home.path, 'settings.json'), JSON.stringify({ sandbox: { enabled: false } }));
      const run = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch'], {
        env: { COVE_BWRAP: join(f.workspace, 'no-such-bwrap') },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /sandbox/i);
      assert.equal(existsSync(join(f.workspace, 'first-marker')), true);
    } finally {
      await f.close();
    }
  });

  test("a workspace's settings cannot loosen the sandbox: off, network or an outside folder stop the run, naming the file", async () => {
    for (const sandbox of [{ enabled: false }, { network: 'all' }, { network: ['example.com'] }, { writable: ['/'] }, { writable: ['../elsewhere'] }]) {
      const f = await cliFixture([reply.text('never')]);
      try {
        mkdirSync(join(f.workspace, '.cove'));
        const path = join(f.workspace, '.cove', 'settings.local.json');
        writeFileSync(path, JSON.stringify({ sandbox }));
        const run = await f.home.run(['run', '--permission-mode', 'bypass', '--workspace', f.workspace, 'hello']);
        assert.equal(run.code, 2, `${JSON.stringify(sandbox)}: ${run.stderr}`);
        assert.ok(run.stderr.includes(`${path}: sandbox.`), run.stderr);
        assert.match(run.stderr, /set it in your own .*settings\.json instead/);
        assert.equal(f.server.requests.length, 0);
      } finally {
        await f.close();
      }
    }
  });

  test('a malformed sandbox setting stops the run before any request, naming the file and the reason', async () => {
    const f = await cliFixture([reply.text('never')]);
    try {
      mkdirSync(join(f.workspace, '.cove'));
      const path = join(f.workspace, '.cove', 'settings.json');
      writeFileSync(path, JSON.stringify({ sandbox: { enabled: 'yes' } }));
      const run = await f.home.run(['run', '--workspace', f.workspace, 'hello']);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: sandbox.enabled must be true or false \\(got "yes"\\)`));
      assert.equal(f.server.requests.length, 0);
    } finally {
      await f.close();
    }
  });
});

/** A user without privileges to run cove as, when this test runs as root: bwrap then needs user namespaces. */
function unprivilegedUser(): { name: string; uid: number; gid: number } | string {
  if (process.getuid?.() !== 0) return 'the tests do not run as root, so they cannot switch to an unprivileged user';
  if (spawnSync('runuser', ['--help']).error) return 'runuser is not installed';
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [name, , uid, gid, , , shell] = line.split(':');
    if (name && Number(uid) >= 1000 && Number(uid) < 65534 && shell && !shell.endsWith('nologin') && !shell.endsWith('false')) {
      return { name, uid: Number(uid), gid: Number(gid) };
    }
  }
  return 'no unprivileged user with a login shell in /etc/passwd';
}

const user = unprivilegedUser();

describe('cove run as an unprivileged user: the bash sandbox', { skip: typeof user === 'string' ? user : skip }, () => {
  test('writes outside are refused and work inside runs, through user namespaces', async () => {
    const account = user as { name: string; uid: number; gid: number };
    const outside = outsideFolder();
    const f = await cliFixture([reply.message([bashCall('inside', 'echo built > inside.txt && id -u'), bashCall('outside', `echo escaped > ${outside}/escaped.txt`)]), reply.text('done')]);
    try {
      for (const path of [f.workspace, f.home.path, outside]) chownSync(path, account.uid, account.gid);
      const child = spawn('runuser', ['-u', account.name, '--', process.execPath, COVE_BIN, 'run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'go'], {
        cwd: f.workspace,
        env: f.home.env(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin!.end();
      const run = await collect(child);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /No OS sandbox/);
      const byId = results(run.events);
      assert.match(byId.get('inside')!.text, new RegExp(`^${account.uid}\\n\\[exit code 0\\]`));
      assert.equal(readFileSync(join(f.workspace, 'inside.txt'), 'utf8'), 'built\n');
      assert.match(byId.get('outside')!.text, /\[sandbox\]/);
      assert.equal(existsSync(join(outside, 'escaped.txt')), false);
    } finally {
      await f.close();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
