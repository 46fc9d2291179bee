// Linux: `npm start`'s check of Chromium's sandbox against simulated kernels, and the deb/rpm
// after-install script run for real (bash, as root) inside bubblewrap, with a fake
// /proc/sys/kernel, /opt/Cove and /etc/apparmor.d bound over the real ones, so its chmod of
// chrome-sandbox and its profile installs land on disk where the test can look.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface LinuxSandboxScript {
  usernsRestriction(options: { read(path: string): string | undefined }): string | null;
  chromiumSandboxProblem(options: {
    electronPath: string;
    platform: string;
    uid: number;
    read(path: string): string | undefined;
    stat(path: string): { uid: number; mode: number } | undefined;
  }): { reason: string; fix: string } | null;
}
const linuxSandbox = (await import(pathToFileURL(resolve('scripts/linux-sandbox.mjs')).href)) as LinuxSandboxScript;

const ubuntu2404 = { '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1', '/proc/sys/user/max_user_namespaces': '63000' };
const reader = (files: Record<string, string>) => (path: string) => files[path];
const electronPath = '/home/ada/cove/node_modules/electron/dist/electron';
const helper = '/home/ada/cove/node_modules/electron/dist/chrome-sandbox';

describe("npm start's check of Chromium's sandbox", () => {
  test('names the AppArmor restriction and the one command when chrome-sandbox is not setuid root', () => {
    const problem = linuxSandbox.chromiumSandboxProblem({ electronPath, platform: 'linux', uid: 1000, read: reader(ubuntu2404), stat: () => ({ uid: 1000, mode: 0o100755 }) });
    assert.ok(problem);
    assert.match(problem.reason, /apparmor_restrict_unprivileged_userns = 1/);
    assert.match(problem.reason, new RegExp(helper));
    assert.equal(problem.fix, `sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`);
  });

  test("names Debian's switch and a zero namespace limit", () => {
    assert.match(linuxSandbox.usernsRestriction({ read: reader({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }) }) ?? '', /unprivileged_userns_clone = 0/);
    assert.match(linuxSandbox.usernsRestriction({ read: reader({ '/proc/sys/user/max_user_namespaces': '0' }) }) ?? '', /max_user_namespaces = 0/);
    assert.equal(
      linuxSandbox.usernsRestriction({ read: reader({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '0', '/proc/sys/kernel/unprivileged_userns_clone': '1' }) }),
      null,
    );
  });

  test('passes where a setuid-root helper exists, namespaces are allowed, on root (--no-sandbox) and off Linux', () => {
    const base = { electronPath, read: reader(ubuntu2404) };
    assert.equal(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'linux', uid: 1000, stat: () => ({ uid: 0, mode: 0o104755 }) }), null);
    assert.ok(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'linux', uid: 1000, stat: () => ({ uid: 0, mode: 0o100755 }) }), 'root-owned but not setuid');
    assert.ok(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'linux', uid: 1000, stat: () => undefined }), 'no helper at all');
    assert.equal(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'linux', uid: 1000, read: reader({}), stat: () => undefined }), null);
    assert.equal(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'linux', uid: 0, stat: () => undefined }), null);
    assert.equal(linuxSandbox.chromiumSandboxProblem({ ...base, platform: 'darwin', uid: 501, stat: () => undefined }), null);
  });
});

/** What electron-builder's FpmTarget does to the templates (writeConfigFile): ${name} macros, unknown ones refused. */
function render(template: string, values: Record<string, string>): string {
  return readFileSync(template, 'utf8').replace(/\${([a-zA-Z]+)}/g, (_match, name: string) => {
    if (!(name in values)) throw new Error(`Macro ${name} is not defined`);
    return values[name]!;
  });
}

const bwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']);
const bwrapProblem =
  process.getuid?.() !== 0
    ? 'the after-install script runs as root; these tests need root'
    : bwrap.status !== 0
      ? `bubblewrap cannot run here: ${bwrap.error?.message ?? bwrap.stderr}`
      : undefined;

interface InstallRun {
  sandboxMode: number;
  installedProfiles: string[];
  parserCalls: string;
  output: string;
}

/** Runs the rendered after-install script as root in bubblewrap over a simulated system. */
function runAfterInstall(
  t: { after(fn: () => void): void },
  kernel: Record<string, string>,
  withAppArmor: boolean,
  extraProfiles: Record<string, string> = {},
  templates: readonly string[] = ['build/linux/after-install.tpl'],
): InstallRun {
  const dir = mkdtempSync(join(tmpdir(), 'cove-after-install-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const app = join(dir, 'opt-cove');
  mkdirSync(join(app, 'resources'), { recursive: true });
  writeFileSync(join(app, 'chrome-sandbox'), 'helper');
  chmodSync(join(app, 'chrome-sandbox'), 0o755);
  const names = { executable: 'cove', sanitizedProductName: 'Cove', productFilename: 'Cove' };
  writeFileSync(join(app, 'resources/apparmor-profile'), render('build/linux/apparmor-profile.tpl', names));
  writeFileSync(join(app, 'resources/apparmor-bwrap'), readFileSync('build/linux/apparmor-bwrap'));
  // The package scripts in order, as dpkg would run them (install, then remove).
  templates.forEach((template, index) => writeFileSync(join(dir, `script-${index}`), render(template, names)));
  writeFileSync(join(dir, 'run'), templates.map((_template, index) => `bash /tmp/script-${index}\n`).join(''));
  const kernelDir = join(dir, 'kernel');
  mkdirSync(kernelDir);
  for (const [name, value] of Object.entries(kernel)) writeFileSync(join(kernelDir, name), `${value}\n`);
  const profiles = join(dir, 'apparmor.d');
  mkdirSync(profiles);
  for (const [name, content] of Object.entries(extraProfiles)) writeFileSync(join(profiles, name), content);
  // The AppArmor tools are simulated: this machine's kernel has no AppArmor to load into.
  const tools = join(dir, 'tools');
  mkdirSync(tools);
  const parserLog = join(dir, 'parser.log');
  if (withAppArmor) {
    writeFileSync(join(tools, 'apparmor_status'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    writeFileSync(join(tools, 'apparmor_parser'), `#!/bin/sh\necho "$*" >> /tmp/parser.log\nexit 0\n`, { mode: 0o755 });
  }
  // Inside bubblewrap ischroot rightly says "chroot"; the simulated machine is a real install.
  writeFileSync(join(dir, 'ischroot'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const result = spawnSync(
    'bwrap',
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--tmpfs',
      '/opt',
      '--bind',
      app,
      '/opt/Cove',
      '--bind',
      kernelDir,
      '/proc/sys/kernel',
      '--bind',
      profiles,
      '/etc/apparmor.d',
      '--bind',
      dir,
      '/tmp',
      '--ro-bind',
      join(dir, 'ischroot'),
      '/usr/bin/ischroot',
      '--setenv',
      'PATH',
      `/tmp/tools:/usr/sbin:/usr/bin:/sbin:/bin`,
      'bash',
      '/tmp/run',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(result.error, undefined);
  return {
    sandboxMode: statSync(join(app, 'chrome-sandbox')).mode & 0o7777,
    installedProfiles: existsSync(profiles) ? readdirSorted(profiles) : [],
    parserCalls: existsSync(parserLog) ? readFileSync(parserLog, 'utf8') : '',
    output: `${result.stdout}${result.stderr}`,
  };
}

function readdirSorted(dir: string): string[] {
  return spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
}

describe('the deb and rpm after-install script', { skip: bwrapProblem }, () => {
  test('makes chrome-sandbox setuid where AppArmor restricts user namespaces and no profile could be loaded (root passing unshare is no proof)', (t) => {
    const run = runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, false);
    assert.equal(run.sandboxMode, 0o4755, run.output);
    const stock = runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, false, {}, ['node_modules/app-builder-lib/templates/linux/after-install.tpl']);
    assert.equal(stock.sandboxMode, 0o755, "electron-builder's own script, run the same way, passes wrongly");
  });

  test('loads the profiles where AppArmor takes them, and then keeps chrome-sandbox unprivileged', (t) => {
    const run = runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, true);
    assert.equal(run.sandboxMode, 0o755, run.output);
    assert.deepEqual(run.installedProfiles, ['cove', 'cove-bwrap']);
    assert.match(run.parserCalls, /--replace --write-cache --skip-read-cache \/etc\/apparmor.d\/cove\n/);
    assert.match(run.parserCalls, /--replace .*\/etc\/apparmor.d\/cove-bwrap/);
  });

  test('the after-remove script unloads both profiles and deletes them, leaving others alone', (t) => {
    const run = runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, true, { 'other-app': 'profile other /opt/other {}\n' }, [
      'build/linux/after-install.tpl',
      'build/linux/after-remove.tpl',
    ]);
    assert.deepEqual(run.installedProfiles, ['other-app']);
    assert.match(run.parserCalls, /--replace .*\/etc\/apparmor.d\/cove-bwrap/, 'both were installed first');
    assert.match(run.parserCalls, /--remove \/etc\/apparmor.d\/cove\n/);
    assert.match(run.parserCalls, /--remove \/etc\/apparmor.d\/cove-bwrap\n/);
  });

  test('leaves bwrap to a profile the system already has for it, but not to one that only runs it', (t) => {
    const ubuntu = 'abi <abi/4.0>,\ninclude <tunables/global>\n\nprofile bwrap /usr/bin/bwrap flags=(attach_disconnected,mediate_deleted) {\n  allow capability,\n  userns,\n}\n';
    assert.deepEqual(runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, true, { 'bwrap-userns-restrict': ubuntu }).installedProfiles, ['bwrap-userns-restrict', 'cove']);
    const caller = 'profile flatpak /usr/bin/flatpak {\n  /usr/bin/bwrap ix,\n}\n';
    assert.deepEqual(runAfterInstall(t, { apparmor_restrict_unprivileged_userns: '1' }, true, { flatpak: caller }).installedProfiles, ['cove', 'cove-bwrap', 'flatpak']);
  });

  test("sets chrome-sandbox setuid where Debian's switch is off, and keeps it 0755 where namespaces are allowed", (t) => {
    assert.equal(runAfterInstall(t, { unprivileged_userns_clone: '0' }, false).sandboxMode, 0o4755);
    assert.equal(runAfterInstall(t, { unprivileged_userns_clone: '1' }, false).sandboxMode, 0o755);
  });
});
