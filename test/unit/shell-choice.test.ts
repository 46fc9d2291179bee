// The bash tool's shell on Windows, chosen on a simulated platform and file system (no Windows
// here), the wrapping each shell gets, run for real where the shell exists (bash), and the
// process-tree kill with the program runner injected.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseShell, describeShell, essentialEnvironment, findGitBash, whereOnPath, windowsShellPreference, type ShellProbe } from '../../electron/core/tools/shell-choice';
import { stopTree, type RunProgram } from '../../electron/core/tools/windows-kill';

const baseEnv = {
  SystemRoot: 'C:\\Windows',
  ProgramFiles: 'C:\\Program Files',
  'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local',
  USERPROFILE: 'C:\\Users\\ada',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
};

/** A Windows machine holding exactly these files; names compared without case, as NTFS does. */
function windows(files: string[], env: Record<string, string> = {}): ShellProbe {
  const present = new Set(files.map((file) => file.toLowerCase()));
  return { platform: 'win32', env: { ...baseEnv, ...env }, isFile: (path) => present.has(path.toLowerCase()) };
}

const gitInstall = ['C:\\Program Files\\Git\\cmd\\git.exe', 'C:\\Program Files\\Git\\bin\\bash.exe', 'C:\\Program Files\\Git\\usr\\bin\\bash.exe'];
const wslLauncher = 'C:\\Windows\\System32\\bash.exe';
const wslExe = 'C:\\Windows\\System32\\wsl.exe';

describe('choosing the shell on Windows', () => {
  test('Git Bash next to the git on PATH (the PATH variable spelt as Windows spells it)', () => {
    const probe = windows(gitInstall, { Path: 'C:\\Windows\\System32;C:\\Program Files\\Git\\cmd' });
    assert.deepEqual(whereOnPath(probe, 'git'), ['C:\\Program Files\\Git\\cmd\\git.exe']);
    const { shell, problem } = chooseShell(probe);
    assert.equal(shell?.kind, 'git-bash');
    assert.equal(shell?.file, 'C:\\Program Files\\Git\\bin\\bash.exe');
    assert.equal(problem, undefined);
  });

  test('Git Bash of a git on PATH elsewhere (mingw64\\bin, a per-user or Scoop install)', () => {
    const custom = ['D:\\tools\\Git\\mingw64\\bin\\git.exe', 'D:\\tools\\Git\\bin\\bash.exe'];
    assert.equal(findGitBash(windows(custom, { PATH: 'D:\\tools\\Git\\mingw64\\bin' })), 'D:\\tools\\Git\\bin\\bash.exe');
    assert.equal(findGitBash(windows(['C:\\Users\\ada\\AppData\\Local\\Programs\\Git\\bin\\bash.exe'])), 'C:\\Users\\ada\\AppData\\Local\\Programs\\Git\\bin\\bash.exe');
    assert.equal(findGitBash(windows(['C:\\Users\\ada\\scoop\\apps\\git\\current\\bin\\bash.exe'])), 'C:\\Users\\ada\\scoop\\apps\\git\\current\\bin\\bash.exe');
    assert.equal(findGitBash(windows(gitInstall)), 'C:\\Program Files\\Git\\bin\\bash.exe', 'the installer default, with git not on PATH');
  });

  test("never takes System32's bash.exe, which is WSL's launcher, for Git Bash", () => {
    const probe = windows([wslLauncher, 'C:\\Windows\\System32\\git.exe'], { PATH: 'C:\\Windows\\System32' });
    assert.equal(findGitBash(probe), undefined);
    assert.equal(chooseShell(probe).shell?.kind, 'powershell');
  });

  test('COVE_GIT_BASH_PATH wins, and a wrong one is not silently replaced by a guess', () => {
    assert.equal(findGitBash(windows([...gitInstall, 'E:\\git\\bin\\bash.exe'], { COVE_GIT_BASH_PATH: 'E:\\git\\bin\\bash.exe' })), 'E:\\git\\bin\\bash.exe');
    assert.equal(findGitBash(windows(gitInstall, { COVE_GIT_BASH_PATH: 'E:\\missing\\bash.exe' })), undefined);
  });

  test('PowerShell without Git Bash: pwsh from PATH, else Windows PowerShell; the description says it is not bash', () => {
    const modern = chooseShell(windows(['C:\\Program Files\\PowerShell\\7\\pwsh.exe'], { PATH: 'C:\\Program Files\\PowerShell\\7' })).shell;
    assert.equal(modern?.file, 'C:\\Program Files\\PowerShell\\7\\pwsh.exe');
    const classic = chooseShell(windows([])).shell!;
    assert.equal(classic.kind, 'powershell');
    assert.equal(classic.file, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    const description = describeShell('Run a shell command with bash.', { shell: classic });
    assert.match(description.split('\n')[0]!, /PowerShell \(powershell\.exe\), not bash/);
    assert.match(description, /Run a shell command with bash\.$/);
  });

  test('PowerShell gets the command as UTF-16 base64, which no quoting breaks, with the exit status and end marker after it', () => {
    const shell = chooseShell(windows([])).shell!;
    const command = `Write-Output "it's \`"quoted\`" & | ; %PATH%"`;
    const args = shell.args(shell.wrap(command, 'abc123'));
    assert.deepEqual(args.slice(0, 6), ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    const script = Buffer.from(args[6]!, 'base64').toString('utf16le');
    assert.ok(script.includes(`\n${command}\n`), 'the command on lines of its own');
    assert.match(script, /\$LASTEXITCODE/);
    assert.match(script, /finally \{ \[Console\]::Out\.Write\(\[string\]\[char\]27 \+ '\]6973;abc123' \+ \[string\]\[char\]7\)/);
    assert.match(script, /exit \$__cove_status$/);
  });

  test('WSL only when chosen, and a missing WSL is named, not hidden', () => {
    const withWsl = windows([...gitInstall, wslExe]);
    assert.equal(chooseShell(withWsl).shell?.kind, 'git-bash');
    const chosen = chooseShell(withWsl, 'wsl').shell!;
    assert.equal(chosen.kind, 'wsl');
    assert.deepEqual(chosen.args('true').slice(0, 3), ['-e', 'bash', '-c']);
    const missing = chooseShell(windows(gitInstall), 'wsl');
    assert.equal(missing.shell?.kind, 'git-bash');
    assert.match(missing.problem ?? '', /windowsShell is "wsl" but C:\\Windows\\System32\\wsl\.exe does not exist/);
    assert.match(chooseShell(windows([]), 'git-bash').problem ?? '', /no Git Bash was found .*COVE_GIT_BASH_PATH/);
    assert.equal(chooseShell(windows(gitInstall), 'powershell').shell?.kind, 'powershell');
  });

  test('off Windows there is no choice to make, and the description stays as it is', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const choice = chooseShell({ platform, env: {}, isFile: () => true }, 'powershell');
      assert.equal(choice.shell, undefined);
      assert.equal(describeShell('base', choice), 'base');
    }
  });

  test('essential Windows variables are passed whatever their case, and nothing else', () => {
    const env = essentialEnvironment({ SYSTEMROOT: 'C:\\Windows', comspec: 'C:\\Windows\\system32\\cmd.exe', ANTHROPIC_API_KEY: 'sk-ant-secret', GITHUB_TOKEN: 'ghp_x' });
    assert.deepEqual(env, { SystemRoot: 'C:\\Windows', ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
  });
});

describe('the shell preference', () => {
  test('COVE_WINDOWS_SHELL, then windowsShell in settings.json; a bad value is named and auto applies', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cove-shell-settings-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const settings = join(dir, 'settings.json');
    assert.deepEqual(windowsShellPreference({}, settings), { preference: 'auto' });
    writeFileSync(settings, JSON.stringify({ windowsShell: 'wsl' }));
    assert.deepEqual(windowsShellPreference({}, settings), { preference: 'wsl' });
    assert.deepEqual(windowsShellPreference({ COVE_WINDOWS_SHELL: 'powershell' }, settings), { preference: 'powershell' });
    writeFileSync(settings, JSON.stringify({ windowsShell: 'cmd' }));
    const bad = windowsShellPreference({}, settings);
    assert.equal(bad.preference, 'auto');
    assert.match(bad.problem ?? '', /windowsShell in .*settings\.json must be one of auto, git-bash, powershell, wsl, not "cmd"/);
  });
});

describe("Git Bash's and WSL's wrapping, run by a real bash", () => {
  const shell = chooseShell(windows(gitInstall)).shell!;
  const marker = '\x1b]6973;n0nce\x07';

  test('prints the end marker last and keeps the exit status, without waiting on /dev/tty', () => {
    const ran = spawnSync('/bin/bash', ['-c', shell.wrap('echo one; echo two >&2; exit 7', 'n0nce')], { encoding: 'utf8', timeout: 5_000 });
    assert.equal(ran.status, 7);
    assert.ok(ran.stdout.endsWith(`one\n${marker}`), JSON.stringify(ran.stdout));
    assert.equal(ran.stderr, 'two\n');
    assert.doesNotMatch(shell.wrap('true', 'n0nce'), /\/dev\/tty/);
  });

  test("keeps bash's line numbers for the model's command and reads nothing from stdin", () => {
    const ran = spawnSync('/bin/bash', ['-c', shell.wrap('read -r line; echo "got:$line"\nif then', 'n0nce')], { input: 'typed\n', encoding: 'utf8', timeout: 5_000 });
    assert.match(ran.stderr, /line 2: syntax error/);
    const read = spawnSync('/bin/bash', ['-c', shell.wrap('read -r line; echo "got:$line"', 'n0nce')], { input: 'typed\n', encoding: 'utf8', timeout: 5_000 });
    assert.ok(read.stdout.startsWith('got:\n'), JSON.stringify(read.stdout));
  });
});

describe('stopping a command on Windows', () => {
  test('runs taskkill by its full path on the whole tree, forced, and waits for the exit', async () => {
    const calls: Array<{ file: string; args: readonly string[] }> = [];
    const run: RunProgram = async (file, args) => {
      calls.push({ file, args });
      return { code: 0, output: 'SUCCESS' };
    };
    let exitedFirst = false;
    const exited = new Promise<void>((resolve) => setTimeout(() => ((exitedFirst = true), resolve()), 20));
    const failure = await stopTree(4242, exited, { run, env: { SystemRoot: 'C:\\Windows' }, settleMs: 5_000 });
    assert.equal(failure, undefined);
    assert.ok(exitedFirst);
    assert.deepEqual(calls, [{ file: 'C:\\Windows\\System32\\taskkill.exe', args: ['/T', '/F', '/PID', '4242'] }]);
  });

  test('a tree already gone is no failure; any other failure is named', async () => {
    const answer =
      (code: number, output: string): RunProgram =>
      async () => ({ code, output });
    assert.equal(await stopTree(1, Promise.resolve(), { run: answer(128, 'ERROR: The process "1" not found.') }), undefined);
    assert.match((await stopTree(1, Promise.resolve(), { run: answer(1, 'ERROR: Access is denied.') })) ?? '', /taskkill \/T \/F \/PID 1 failed \(1\): ERROR: Access is denied\./);
  });
});

describe('a command through the Windows path of bash-process, in a real PTY', () => {
  // Git Bash's shell description with this machine's bash as its file: the marker without an
  // acknowledgement, the wait for it after the exit, and the essential variables, run for real.
  const gitBash = chooseShell(windows(gitInstall)).shell!;
  const shell = { ...gitBash, file: '/bin/bash' };

  test('ends on its own with all its output, its exit status and the variables Windows programs need', async (t) => {
    const { spawnCommand } = await import('../../electron/core/tools/bash-process');
    process.env.SystemRoot = 'C:\\Windows';
    t.after(() => delete process.env.SystemRoot);
    const command = 'echo "root=$SystemRoot"; printf "last line"; exit 3';
    const child = spawnCommand({ command, cwd: tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, windowsShell: shell });
    let output = '';
    child.onData((chunk) => (output += chunk));
    const exit = await child.exited;
    assert.equal(exit.exitCode, 3);
    assert.match(output, /root=C:\\Windows\r?\nlast line$/);
    assert.doesNotMatch(output, /6973/, 'the end marker is not shown');
  });
});
