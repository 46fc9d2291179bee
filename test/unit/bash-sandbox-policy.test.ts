import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPolicy, bwrapArguments, loadSandboxSettings, seatbeltProfile, type SandboxPolicy, type SandboxSettings } from '../../electron/core/bash-sandbox';
import { acquireHolds } from '../../electron/core/bash-sandbox/holds';
import { withoutSandbox } from '../../electron/core/bash-sandbox/permission';
import type { Decision } from '../../electron/core/permissions/decide';
import { refusalNote } from '../../electron/core/bash-sandbox/refusal';

let base: string;
before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-sandbox-policy-')));
});
after(() => rmSync(base, { recursive: true, force: true }));

let folders = 0;
function folder(name = 'dir'): string {
  const path = join(base, `${name}-${folders++}`);
  mkdirSync(path, { recursive: true });
  return path;
}

const settings = (overrides: Partial<SandboxSettings> = {}): SandboxSettings => ({ enabled: true, network: 'none', writable: [], ...overrides });

function policyFor(root: string, overrides: Partial<SandboxSettings> = {}, home = folder('home')): SandboxPolicy {
  return buildPolicy({ workspaceRoots: [root], cwd: root, settings: settings(overrides), temp: folder('temp'), home });
}

describe('sandbox settings', () => {
  test('merge: enabled and network from the most specific file, writable lists from all', () => {
    const home = folder('cove-home');
    const root = folder('root');
    mkdirSync(join(root, '.cove'));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { network: 'all', writable: ['/opt/cache'] } }));
    writeFileSync(join(root, '.cove', 'settings.json'), JSON.stringify({ sandbox: { network: ['registry.npmjs.org', '*.GitHub.com'], writable: ['build-out'] } }));
    writeFileSync(join(root, '.cove', 'settings.local.json'), JSON.stringify({ sandbox: { network: ['registry.npmjs.org'] } }));
    const merged = loadSandboxSettings({ workspaceRoots: [root], coveHome: home });
    assert.equal(merged.enabled, true);
    assert.deepEqual(merged.network, ['registry.npmjs.org']);
    assert.deepEqual(merged.writable, ['/opt/cache', join(root, 'build-out')]);
  });

  test('a workspace file may narrow the network the person allows, never widen it', () => {
    const home = folder('cove-home');
    const root = folder('root');
    mkdirSync(join(root, '.cove'));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { network: ['registry.npmjs.org'] } }));
    writeFileSync(join(root, '.cove', 'settings.json'), JSON.stringify({ sandbox: { network: ['registry.npmjs.org', 'evil.example'] } }));
    assert.throws(() => loadSandboxSettings({ workspaceRoots: [root], coveHome: home }), /settings\.json: sandbox\.network .* opens the network further/);
    writeFileSync(join(root, '.cove', 'settings.json'), JSON.stringify({ sandbox: { network: 'none', enabled: true } }));
    assert.equal(loadSandboxSettings({ workspaceRoots: [root], coveHome: home }).network, 'none');
  });

  test('no file, or no sandbox key: enabled, network off, nothing extra writable', () => {
    const home = folder('cove-home');
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: [] } }));
    assert.deepEqual(loadSandboxSettings({ workspaceRoots: [folder('root')], coveHome: home }), settings());
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['enabled as a string', { enabled: 'yes' }, /sandbox\.enabled must be true or false \(got "yes"\)/],
    ['network as a number', { network: 5 }, /sandbox\.network must be "none", "all" or a list of host names \(got 5\)/],
    ['a URL in the host list', { network: ['https://example.com/x'] }, /sandbox\.network\[0\] must be a host name/],
    ['writable as a string', { writable: '/tmp/x' }, /sandbox\.writable must be a list of paths/],
    ['an empty writable path', { writable: [''] }, /sandbox\.writable\[0\] must be a non-empty path/],
    ['an unknown key', { netwrok: 'all' }, /sandbox\.netwrok is not a sandbox setting/],
    ['a list for sandbox', [], /sandbox must be an object/],
  ];
  for (const [name, value, message] of malformed) {
    test(`a malformed value is an error naming the file: ${name}`, () => {
      const home = folder('cove-home');
      const path = join(home, 'settings.json');
      writeFileSync(path, JSON.stringify({ sandbox: value }));
      assert.throws(
        () => loadSandboxSettings({ workspaceRoots: [], coveHome: home }),
        (error: Error) => {
          assert.ok(error.message.startsWith(`${path}: `), error.message);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test('a file that is not JSON is an error naming the file', () => {
    const home = folder('cove-home');
    writeFileSync(join(home, 'settings.json'), '{"sandbox": ');
    assert.throws(() => loadSandboxSettings({ workspaceRoots: [], coveHome: home }), /settings\.json: is not valid JSON/);
  });
});

describe('sandbox policy', () => {
  test('writable: the roots, temp and configured paths that exist; protected paths only where a write could reach', () => {
    const root = folder('root');
    const cache = folder('cache');
    const home = folder('home');
    const policy = buildPolicy({
      workspaceRoots: [root],
      cwd: root,
      settings: settings({ writable: [cache, join(base, 'missing')] }),
      temp: join(base, 'temp-x'),
      home,
    });
    assert.deepEqual(policy.writable, [root, cache]);
    assert.deepEqual(policy.missingWritable, [join(base, 'temp-x'), join(base, 'missing')]);
    const protectedPaths = policy.protectedPaths.map((entry) => entry.path);
    for (const name of ['.cove', '.claude', '.mcp.json', '.git/config', '.git/hooks', '.gitmodules', '.npmrc', '.envrc']) {
      assert.ok(protectedPaths.includes(join(root, name)), name);
    }
    assert.equal(
      protectedPaths.some((path) => path.startsWith(home)),
      false,
      'a read-only home needs no holds',
    );
  });

  test('shell start-up files are held when home is writable', () => {
    const home = folder('home');
    const root = folder('root');
    const policy = policyFor(root, { writable: [home] }, home);
    const protectedPaths = policy.protectedPaths.map((entry) => entry.path);
    assert.ok(protectedPaths.includes(join(home, '.bashrc')));
    assert.ok(protectedPaths.includes(join(home, '.zshrc')));
    assert.ok(protectedPaths.includes(join(home, '.config/fish/config.fish')));
    // fish also runs conf.d/*.fish and autoloads functions/: the whole folder is held.
    assert.ok(policy.protectedPaths.some((entry) => entry.path === join(home, '.config/fish') && entry.folder));
  });

  test('bwrap arguments: read-only root, writable binds, then protected holds; network by setting', () => {
    const root = folder('root');
    writeFileSync(join(root, '.npmrc'), 'registry=x\n');
    const policy = policyFor(root);
    const args = bwrapArguments(policy, { anchors: [], paths: [join(root, '.npmrc')], covers: [] });
    const at = (...items: string[]) => args.findIndex((_, index) => items.every((item, offset) => args[index + offset] === item));
    assert.ok(at('--ro-bind', '/', '/') >= 0);
    assert.ok(at('--bind', root, root) > at('--ro-bind', '/', '/'));
    assert.ok(at('--ro-bind', join(root, '.npmrc'), join(root, '.npmrc')) > at('--bind', root, root));
    assert.ok(args.includes('--unshare-net'));
    assert.ok(args.includes('--die-with-parent'));
    assert.ok(at('--cap-drop', 'ALL') >= 0, 'root keeps no capability to remount');
    assert.ok(!args.includes('--new-session'), 'the PTY stays the controlling terminal');
    assert.deepEqual(args.slice(-3), ['--chdir', root, '--']);
    const hidden = bwrapArguments(
      {
        ...policy,
        hiddenSockets: [
          { path: '/run/user/1000', folder: true },
          { path: '/run/docker.sock', folder: false },
        ],
      },
      { anchors: [], paths: [], covers: [] },
    );
    assert.ok(hidden.join(' ').includes('--tmpfs /run/user/1000 --remount-ro /run/user/1000'));
    assert.ok(hidden.join(' ').includes('--ro-bind /dev/null /run/docker.sock'));
    assert.ok(!bwrapArguments(policyFor(root, { network: 'all' }), { anchors: [], paths: [], covers: [] }).includes('--unshare-net'));
    assert.ok(bwrapArguments(policyFor(root, { network: ['example.com'] }), { anchors: [], paths: [], covers: [] }).includes('--unshare-net'), 'a host list fails closed');
  });
});

describe('holds of protected paths', () => {
  test('missing ones get placeholders that are removed on release; existing ones are held as they are', () => {
    const root = folder('root');
    writeFileSync(join(root, '.npmrc'), 'registry=x\n');
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    const holds = acquireHolds(policyFor(root));
    for (const name of ['.npmrc', '.envrc', '.mcp.json', '.cove', '.claude', '.git/config', '.git/hooks']) {
      assert.ok(holds.paths.includes(join(root, name)), name);
    }
    assert.ok(holds.anchors.includes(join(root, '.git')), 'the folder on the way is pinned');
    assert.equal(readFileSync(join(root, '.envrc'), 'utf8'), '');
    const exclude = holds.covers.find((cover) => cover.target === join(root, '.git', 'info', 'exclude'));
    assert.ok(exclude, 'git is told to ignore the placeholders');
    assert.match(readFileSync(exclude.source, 'utf8'), /^\/\.envrc$/m);
    assert.doesNotMatch(readFileSync(exclude.source, 'utf8'), /^\/\.npmrc$/m, 'a real file is not hidden');
    holds.release();
    for (const name of ['.envrc', '.mcp.json', '.cove', '.claude', '.gitmodules', '.git/info']) assert.equal(existsSync(join(root, name)), false, name);
    assert.equal(readFileSync(join(root, '.npmrc'), 'utf8'), 'registry=x\n');
  });

  test('a folder that is no repository gets a read-only .git placeholder and no exclude list inside it', () => {
    const root = folder('root');
    const holds = acquireHolds(policyFor(root));
    // .git/config and .git/hooks are held by an empty .git: `git init` cannot plant hooks there.
    assert.ok(holds.paths.includes(join(root, '.git')), '.git is held read-only');
    for (const name of ['.envrc', '.mcp.json', '.cove', '.claude']) assert.ok(holds.paths.includes(join(root, name)), name);
    assert.deepEqual(holds.covers, [], 'no git reads an exclude list in our own placeholder');
    assert.equal(existsSync(join(root, '.git', 'info')), false, 'nothing is made inside the placeholder');
    holds.release();
    for (const name of ['.git', '.envrc', '.cove']) assert.equal(existsSync(join(root, name)), false, name);
  });

  test('parallel commands share a placeholder; the last one removes it', () => {
    const root = folder('root');
    const first = acquireHolds(policyFor(root));
    const second = acquireHolds(policyFor(root));
    first.release();
    assert.ok(existsSync(join(root, '.envrc')));
    second.release();
    assert.equal(existsSync(join(root, '.envrc')), false);
  });

  test('a placeholder someone filled meanwhile is left alone', () => {
    const root = folder('root');
    const holds = acquireHolds(policyFor(root));
    writeFileSync(join(root, '.envrc'), 'written by the person outside the sandbox\n');
    holds.release();
    assert.equal(readFileSync(join(root, '.envrc'), 'utf8'), 'written by the person outside the sandbox\n');
  });

  test("a worktree's git folders are writable, and their config and hooks held", () => {
    const common = folder('main-git');
    const gitFolder = join(common, 'worktrees', 'feature');
    mkdirSync(gitFolder, { recursive: true });
    writeFileSync(join(gitFolder, 'commondir'), '../..\n');
    const root = folder('worktree');
    writeFileSync(join(root, '.git'), `gitdir: ${gitFolder}\n`);
    const policy = policyFor(root);
    assert.ok(policy.writable.includes(gitFolder) && policy.writable.includes(common));
    const protectedPaths = policy.protectedPaths.map((entry) => entry.path);
    for (const path of [join(common, 'config'), join(common, 'hooks'), join(gitFolder, 'config.worktree')]) assert.ok(protectedPaths.includes(path), path);
  });

  test("a worktree's .git file is held so it cannot be swapped for a folder", () => {
    const root = folder('root');
    writeFileSync(join(root, '.git'), 'gitdir: /elsewhere\n');
    const holds = acquireHolds(policyFor(root));
    assert.ok(holds.paths.includes(join(root, '.git')));
    holds.release();
    assert.equal(readFileSync(join(root, '.git'), 'utf8'), 'gitdir: /elsewhere\n');
  });

  test('a protected path that is a dangling symlink fails the setup with the reason', () => {
    const root = folder('root');
    symlinkSync(join(base, 'nowhere'), join(root, '.envrc'));
    assert.throws(() => acquireHolds(policyFor(root)), /\.envrc is a symbolic link to something missing/);
    assert.equal(existsSync(join(root, '.mcp.json')), false, 'placeholders made before the failure are removed');
  });
});

describe('Seatbelt profile (macOS, generated here as text)', () => {
  test('denies writes by default, allows the writable folders, then denies the protected paths', () => {
    const root = folder('root "quoted"');
    const profile = seatbeltProfile(policyFor(root));
    const lines = profile.split('\n');
    const index = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    assert.equal(lines[0], '(version 1)');
    const escaped = root.replace(/"/g, '\\"');
    assert.ok(index(/^\(deny file-write\*\)$/) >= 0);
    assert.ok(index(new RegExp(`^\\(allow file-write\\* .*\\(subpath "${escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\)`)) > index(/^\(deny file-write\*\)$/));
    const protectedLine = lines[index(/^\(deny file-write\* \(/)]!;
    assert.ok(index(/^\(deny file-write\* \(/) > index(/^\(allow file-write\* .*subpath/), 'later rules win in SBPL');
    assert.ok(protectedLine.includes(`(subpath "${escaped}/.cove")`));
    assert.ok(protectedLine.includes(`(literal "${escaped}/.envrc")`));
    assert.ok(protectedLine.includes(`(subpath "${escaped}/.git/hooks")`));
    assert.match(profile, new RegExp(`\\(deny file-write-unlink \\(literal "${escaped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.git"\\)`));
    assert.match(profile, /\(deny network-outbound \(remote ip\)\)/);
    assert.doesNotMatch(seatbeltProfile(policyFor(root, { network: 'all' })), /deny network/);
    assert.match(seatbeltProfile(policyFor(root, { network: ['example.com'] })), /deny network-outbound/);
    const sockets = seatbeltProfile({
      ...policyFor(root, { network: 'all' }),
      hiddenSockets: [
        { path: '/private/var/run/docker.sock', folder: false },
        { path: '/run/user/501', folder: true },
      ],
    });
    assert.match(sockets, /\(deny network-outbound \(remote unix-socket \(path-literal "\/private\/var\/run\/docker\.sock"\) \(path-regex #"\^\/run\/user\/501\/"\)\)\)/);
  });
});

describe('refusal notes', () => {
  const root = '/work/project';
  const policy: SandboxPolicy = {
    writable: [root, '/tmp'],
    missingWritable: [],
    protectedPaths: [
      { path: `${root}/.envrc`, folder: false },
      { path: `${root}/.git/config`, folder: false },
    ],
    network: 'none',
    networkOpen: false,
    hiddenSockets: [],
    cwd: root,
  };

  test('a refused write outside the writable set names the path and the setting', () => {
    const note = refusalNote("touch: cannot touch '/etc/motd': Read-only file system\n", policy, 'bubblewrap');
    assert.match(note ?? '', /refused the write to \/etc\/motd: .*"sandbox\.writable"/);
  });

  test("a path inside a message is found; the program's name at the start of the line is not", () => {
    const note = refusalNote('/bin/bash: line 1: error: could not write config file /work/project/.git/config: Device or resource busy\n', policy, 'bubblewrap') ?? '';
    assert.match(note, /refused the write to \/work\/project\/\.git\/config: /);
    assert.doesNotMatch(note, /\/bin\/bash/);
  });

  test('a refused protected file says it is protected', () => {
    const note = refusalNote('bash: line 1: .envrc: Read-only file system\n', policy, 'bubblewrap');
    assert.match(note ?? '', /\/work\/project\/\.envrc is protected/);
  });

  test('a busy folder on the way to a protected file is named', () => {
    const note = refusalNote("mv: cannot move '.git' to 'x': Device or resource busy\n", policy, 'bubblewrap');
    assert.match(note ?? '', /\/work\/project\/\.git is protected/);
  });

  test("permission denied is the file's own mode, not the sandbox, wherever the file is", () => {
    assert.equal(refusalNote("cat: '/work/project/secret': Permission denied\n", policy, 'bubblewrap'), undefined);
    assert.equal(refusalNote("cat: '/root/.ssh/id_rsa': Permission denied\n", policy, 'bubblewrap'), undefined);
  });

  test('Seatbelt refuses with EPERM, and its note names the path', () => {
    assert.match(refusalNote('touch: /etc/motd: Operation not permitted\n', policy, 'seatbelt') ?? '', /\(seatbelt\) refused the write to \/etc\/motd/);
  });

  test('a refused connection with the network off says how to open it; with it open, nothing', () => {
    assert.match(refusalNote('curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused\n', policy, 'bubblewrap') ?? '', /no network for bash.*"network": "all"/);
    assert.equal(refusalNote('Connection refused\n', { ...policy, networkOpen: true, network: 'all' }, 'bubblewrap'), undefined);
  });
});

describe('the permission engine without a sandbox', () => {
  const allowed = { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'bypass' } as const;
  test('an allowed bash call asks, or is denied headless; a deny stays a deny; an ask says why too', () => {
    assert.equal(withoutSandbox(allowed, null, true), allowed);
    const asked = withoutSandbox(allowed, 'no OS sandbox', true);
    assert.equal(asked.outcome, 'ask');
    assert.deepEqual(asked.outcome === 'ask' && asked.reasons, ['no OS sandbox']);
    const headless = withoutSandbox(allowed, 'no OS sandbox', false);
    assert.equal(headless.outcome, 'deny');
    assert.match(headless.outcome === 'deny' ? headless.reason : '', /^no OS sandbox; cove run has no one to ask/);
    const denied = { outcome: 'deny', decidedBy: 'rule', rule: 'bash(rm:*)', reason: 'no' } as const;
    assert.equal(withoutSandbox(denied, 'no OS sandbox', true), denied);
    const ask: Decision = { outcome: 'ask', reasons: ['not covered'], suggestedRule: 'bash(ls)', alternativeRule: null, askRule: null, urgency: 'normal' };
    const both = withoutSandbox(ask, 'no OS sandbox', true);
    assert.deepEqual(both.outcome === 'ask' && both.reasons, ['not covered', 'no OS sandbox']);
  });
});
