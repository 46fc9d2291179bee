/**
 * Which shell the bash tool runs on Windows, and how a command is wrapped for it (on Linux and
 * macOS it is /bin/bash, as bash-process.ts has it). Windows has no /bin/bash: Git for Windows'
 * bash when it is installed (what most people who write shell commands there have, and what the
 * model's commands assume), else PowerShell, whose tool description then says so; WSL's bash
 * only when chosen, since it runs in another file system and a Windows path means nothing there
 * without translation.
 *
 * Everything the choice needs from the machine comes through `ShellProbe`, so each Windows case
 * is tested on Linux with a simulated platform and file system.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, win32 } from 'node:path';
import { readSettingsObject } from '../settings/settings-files';

export type ShellKind = 'git-bash' | 'powershell' | 'wsl';
export type WindowsShellPreference = 'auto' | 'git-bash' | 'powershell' | 'wsl';
export const WINDOWS_SHELL_PREFERENCES: readonly WindowsShellPreference[] = ['auto', 'git-bash', 'powershell', 'wsl'];

export interface ShellProbe {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  isFile(path: string): boolean;
}

/** A Windows shell. */
export interface Shell {
  kind: ShellKind;
  /** The executable node-pty starts. */
  file: string;
  /** Its arguments for one wrapped command line. */
  args(wrapped: string): string[];
  /**
   * The command with the end marker of bash-process.ts printed last. Unlike on POSIX the shell
   * does not wait for an acknowledgement on /dev/tty (MSYS2 and PowerShell under ConPTY have no
   * terminal we can answer on): it exits, and the reader takes the marker as proof that
   * everything before it has arrived.
   */
  wrap(command: string, nonce: string): string;
  /** One line for the tool description: which shell this is and what its syntax is. */
  description: string;
}

/**
 * Without SystemRoot, Windows programs cannot load winsock (no network), without ComSpec or
 * PATHEXT they cannot start commands, without TEMP they write to C:\Windows. None holds a secret.
 */
const WINDOWS_ESSENTIAL_ENV = [
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
  'USERNAME',
  'COMPUTERNAME',
];

/** bash-process.ts's wrapping without the wait for an acknowledgement; all on the first line, as there. */
function bashWrap(command: string, nonce: string): string {
  const onExit = `__cove_status=$?; printf "\\033]6973;${nonce}\\007"; exit "$__cove_status"`;
  return `exec </dev/null; trap '${onExit}' EXIT; ${command}`;
}

function gitBash(file: string): Shell {
  return {
    kind: 'git-bash',
    file,
    args: (wrapped) => ['-c', wrapped],
    wrap: bashWrap,
    description: `Windows: commands run with Git Bash (${file}) -c; Windows paths may be written C:/Users/… or /c/Users/…, and Windows programs (.exe, .cmd) run too.`,
  };
}

function wsl(file: string): Shell {
  return {
    kind: 'wsl',
    file,
    // --cd is not given: wsl.exe starts in the Windows working directory, translated to /mnt/….
    args: (wrapped) => ['-e', 'bash', '-c', wrapped],
    wrap: bashWrap,
    description: 'Windows: commands run with bash -c inside WSL (Linux); the workspace is under /mnt/<drive>/…, and Linux tools, not Windows ones, are on PATH.',
  };
}

/**
 * PowerShell reads its command as UTF-16LE base64, which no quoting of the command line can
 * break; the price is length: Windows' 32,767-character command line holds about 12,000
 * characters of command this way.
 */
function powershell(file: string): Shell {
  return {
    kind: 'powershell',
    file,
    args: (wrapped) => ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', Buffer.from(wrapped, 'utf16le').toString('base64')],
    wrap: (command, nonce) =>
      [
        '$__cove_status = 0',
        // The command on lines of its own, so a trailing comment or a here-string cannot swallow ours.
        `try {\n${command}\n\nif ($LASTEXITCODE) { $__cove_status = $LASTEXITCODE } elseif (-not $?) { $__cove_status = 1 } }`,
        'catch { Write-Error $_; $__cove_status = 1 }',
        `finally { [Console]::Out.Write([string][char]27 + ']6973;${nonce}' + [string][char]7); [Console]::Out.Flush() }`,
        'exit $__cove_status',
      ].join('\n'),
    description: `Windows without Git Bash: commands run in PowerShell (${win32.basename(file)}), not bash. Write PowerShell: Get-ChildItem, Select-String, $env:NAME, ';' between commands; Unix tools are not installed.`,
  };
}

/** A value of the environment, looked up the way Windows does: without regard to case. */
function envValue(env: ShellProbe['env'], name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key];
}

/** Every place `name` could be found on the Windows PATH, in order (what `where name` prints). */
export function whereOnPath(probe: ShellProbe, name: string): string[] {
  const folders = (envValue(probe.env, 'PATH') ?? '')
    .split(';')
    .map((folder) => folder.trim().replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
  const extensions = win32.extname(name) ? [''] : (envValue(probe.env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  return folders.flatMap((folder) => extensions.map((extension) => win32.join(folder, `${name}${extension.toLowerCase()}`))).filter((path) => probe.isFile(path));
}

/**
 * Git for Windows' bash.exe: from COVE_GIT_BASH_PATH, next to the git.exe on PATH (…\Git\cmd\git.exe
 * or …\Git\bin\git.exe beside …\Git\bin\bash.exe), or in the folders the installer, a per-user
 * install and Scoop use. Never C:\Windows\System32\bash.exe, which is WSL's launcher.
 */
export function findGitBash(probe: ShellProbe): string | undefined {
  const configured = envValue(probe.env, 'COVE_GIT_BASH_PATH');
  if (configured) return probe.isFile(configured) ? configured : undefined;
  const candidates: string[] = [];
  for (const git of whereOnPath(probe, 'git')) {
    // …\Git\cmd\git.exe, …\Git\bin\git.exe or …\Git\mingw64\bin\git.exe.
    let root = win32.dirname(win32.dirname(git));
    if (win32.basename(root).toLowerCase() === 'mingw64') root = win32.dirname(root);
    candidates.push(win32.join(root, 'bin', 'bash.exe'), win32.join(root, 'usr', 'bin', 'bash.exe'));
  }
  for (const variable of ['ProgramFiles', 'ProgramW6432', 'ProgramFiles(x86)']) {
    const base = envValue(probe.env, variable);
    if (base) candidates.push(win32.join(base, 'Git', 'bin', 'bash.exe'));
  }
  const localAppData = envValue(probe.env, 'LOCALAPPDATA');
  if (localAppData) candidates.push(win32.join(localAppData, 'Programs', 'Git', 'bin', 'bash.exe'));
  const profile = envValue(probe.env, 'USERPROFILE');
  if (profile) candidates.push(win32.join(profile, 'scoop', 'apps', 'git', 'current', 'bin', 'bash.exe'));
  return candidates.find((path) => !/\\windows\\system32\\/i.test(path) && probe.isFile(path));
}

function findPowerShell(probe: ShellProbe): string {
  const modern = whereOnPath(probe, 'pwsh.exe')[0];
  if (modern) return modern;
  const systemRoot = envValue(probe.env, 'SystemRoot') ?? 'C:\\Windows';
  return win32.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/**
 * The shell for this machine. `preference` is `windowsShell` from settings or COVE_WINDOWS_SHELL;
 * a preferred shell that is not installed falls back to the automatic choice, and `problem`
 * says why, so the person learns it instead of getting another shell silently.
 */
export interface ShellChoice {
  /** Undefined off Windows, where bash-process.ts runs /bin/bash. */
  shell?: Shell;
  problem?: string;
}

export function chooseShell(probe: ShellProbe, preference: WindowsShellPreference = 'auto'): ShellChoice {
  if (probe.platform !== 'win32') return {};
  const systemRoot = envValue(probe.env, 'SystemRoot') ?? 'C:\\Windows';
  if (preference === 'wsl') {
    const file = win32.join(systemRoot, 'System32', 'wsl.exe');
    if (probe.isFile(file)) return { shell: wsl(file) };
    const fallback = chooseShell(probe, 'auto');
    return { shell: fallback.shell, problem: `windowsShell is "wsl" but ${file} does not exist (install WSL: wsl --install); using ${fallback.shell?.kind}` };
  }
  if (preference === 'powershell') return { shell: powershell(findPowerShell(probe)) };
  const bash = findGitBash(probe);
  if (bash) return { shell: gitBash(bash) };
  const shell = powershell(findPowerShell(probe));
  if (preference === 'git-bash') return { shell, problem: 'windowsShell is "git-bash" but no Git Bash was found (install Git for Windows, or set COVE_GIT_BASH_PATH); using PowerShell' };
  return { shell };
}

/** The preference from COVE_WINDOWS_SHELL, else `windowsShell` in COVE_HOME/settings.json; a bad value is named. */
export function windowsShellPreference(env: Readonly<Record<string, string | undefined>>, settingsFile: string): { preference: WindowsShellPreference; problem?: string } {
  let value: unknown = env.COVE_WINDOWS_SHELL?.trim() || undefined;
  let source = 'COVE_WINDOWS_SHELL';
  if (value === undefined) {
    source = `windowsShell in ${settingsFile}`;
    try {
      value = readSettingsObject(settingsFile)?.windowsShell;
    } catch {
      // A broken settings file is reported where it stops something (a run, Settings).
      value = undefined;
    }
  }
  if (value === undefined) return { preference: 'auto' };
  if ((WINDOWS_SHELL_PREFERENCES as readonly unknown[]).includes(value)) return { preference: value as WindowsShellPreference };
  return { preference: 'auto', problem: `${source} must be one of ${WINDOWS_SHELL_PREFERENCES.join(', ')}, not ${JSON.stringify(value)}; using auto` };
}

let current: ShellChoice | undefined;

/** This machine's shell, chosen once per process; `problem` is logged once by whoever asks first. */
export function currentShell(): ShellChoice {
  if (current) return current;
  if (process.platform !== 'win32') return (current = {});
  // Read as store.ts's defaultDataDir reads it; importing that module would load SQLite's binding here.
  const dataDir = process.env.COVE_HOME?.trim() || join(homedir(), '.cove');
  const wanted = windowsShellPreference(process.env, join(dataDir, 'settings.json'));
  const probe: ShellProbe = { platform: process.platform, env: process.env, isFile: (path) => existsSync(path) };
  const chosen = chooseShell(probe, wanted.preference);
  const problem = [wanted.problem, chosen.problem].filter(Boolean).join('; ');
  current = problem ? { ...chosen, problem } : chosen;
  return current;
}

/** The host's values of the variables Windows programs need, for a command's environment. */
export function essentialEnvironment(source: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of WINDOWS_ESSENTIAL_ENV) {
    const value = envValue(source, name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * The bash tool's description for this machine: unchanged off Windows; on Windows led by which
 * shell runs the commands, so a model told PowerShell does not write bash.
 */
export function describeShell(base: string, choice: ShellChoice = currentShell()): string {
  if (!choice.shell) return base;
  const problem = choice.problem ? ` (${choice.problem}.)` : '';
  return `${choice.shell.description}${problem}\n${base}`;
}
