/**
 * git runs programs named in its configuration: a pager, an editor, an ssh command, aliases
 * starting with `!`, diff and filter drivers. `git -c core.pager='rm x' log` therefore runs
 * `rm x` although it reads as `git log`, so such overrides, and the options and subcommands that
 * take a command to run, are reported as constructs whose effect cannot be read.
 */
import { skipOptions } from './shell-wrappers';

export interface GitFindings {
  reasons: string[];
  /** A command comes from somewhere the text does not show (a file, the environment). */
  opaque: boolean;
  /** Command lines git would run, checked against the deny rules like any other. */
  sources: { origin: string; source: string }[];
}

/** Configuration keys whose value is a program git runs, or a file that could set one. */
const COMMAND_KEYS: RegExp[] = [
  /^core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)$/,
  /^sequence\.editor$/,
  /^diff\.external$/,
  /^alias\./,
  /^pager\./,
  /\.(command|program|textconv|clean|smudge|process|driver|cmd|helper)$/,
  /^remote\..*\.(uploadpack|receivepack|vcs)$/,
  /^uploadpack\.packobjectshook$/,
  /^include(if)?\./,
  /^init\.templatedir$/,
];

/** Keys naming a file or folder of further configuration or hooks rather than a command. */
const FILE_KEYS = /^(include(if)?\.|init\.templatedir$|core\.hookspath$)/;

/** Global options (before the subcommand) that take the next word as their value. */
const GLOBAL_VALUED = ['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--list-cmds'];

/** Options of any subcommand that name a program for git to run. */
const COMMAND_OPTIONS =
  /^(--upload-pack|--receive-pack|--exec|--extcmd|--to-cmd|--cc-cmd|--header-cmd|--open-files-in-pager|-O|--ext-diff|--textconv|--(env|tree|index|parent|msg|commit|tag-name|subdirectory)-filter)(=|$)/;

/**
 * git's own commands (git help -a, git 2.4x). Another word in the subcommand's place is an alias
 * from a configuration file, which may run anything, so deny rules could not see what it is.
 */
export const GIT_COMMANDS: ReadonlySet<string> = new Set([
  'add',
  'am',
  'annotate',
  'apply',
  'archive',
  'backfill',
  'bisect',
  'blame',
  'branch',
  'bugreport',
  'bundle',
  'cat-file',
  'check-attr',
  'check-ignore',
  'check-mailmap',
  'check-ref-format',
  'checkout',
  'checkout-index',
  'cherry',
  'cherry-pick',
  'citool',
  'clean',
  'clone',
  'column',
  'commit',
  'commit-graph',
  'commit-tree',
  'config',
  'count-objects',
  'credential',
  'describe',
  'diagnose',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'difftool',
  'fetch',
  'fetch-pack',
  'filter-branch',
  'fmt-merge-msg',
  'for-each-ref',
  'for-each-repo',
  'format-patch',
  'fsck',
  'gc',
  'get-tar-commit-id',
  'grep',
  'gui',
  'hash-object',
  'help',
  'index-pack',
  'init',
  'instaweb',
  'interpret-trailers',
  'log',
  'ls-files',
  'ls-remote',
  'ls-tree',
  'mailinfo',
  'mailsplit',
  'maintenance',
  'merge',
  'merge-base',
  'merge-file',
  'merge-tree',
  'mergetool',
  'mktag',
  'mktree',
  'multi-pack-index',
  'mv',
  'name-rev',
  'notes',
  'pack-objects',
  'pack-refs',
  'prune',
  'prune-packed',
  'pull',
  'push',
  'range-diff',
  'read-tree',
  'rebase',
  'reflog',
  'refs',
  'remote',
  'repack',
  'replace',
  'replay',
  'request-pull',
  'rerere',
  'reset',
  'restore',
  'rev-list',
  'rev-parse',
  'revert',
  'rm',
  'send-email',
  'shortlog',
  'show',
  'show-branch',
  'show-index',
  'show-ref',
  'sparse-checkout',
  'stage',
  'stash',
  'status',
  'stripspace',
  'submodule',
  'switch',
  'symbolic-ref',
  'tag',
  'unpack-file',
  'unpack-objects',
  'update-index',
  'update-ref',
  'var',
  'verify-commit',
  'verify-pack',
  'verify-tag',
  'version',
  'whatchanged',
  'worktree',
  'write-tree',
  'lfs',
]);

/** Where git's subcommand stands, after its global options; `argv.length` when there is none. */
export function gitSubcommandIndex(argv: readonly string[]): number {
  let index = 1;
  while (index < argv.length) {
    const value = argv[index]!;
    if (value === '--') return index + 1;
    if (!value.startsWith('-')) return index;
    index += GLOBAL_VALUED.includes(value) ? 2 : 1;
  }
  return index;
}

export function isCommandKey(key: string): boolean {
  const lower = key.toLowerCase();
  return COMMAND_KEYS.some((pattern) => pattern.test(lower));
}

export function inspectGit(values: readonly string[]): GitFindings {
  const findings: GitFindings = { reasons: [], opaque: false, sources: [] };
  const configValue = (setting: string, how: string) => {
    const equals = setting.indexOf('=');
    const key = equals < 0 ? setting : setting.slice(0, equals);
    if (!isCommandKey(key)) return;
    findings.reasons.push(`${how} git's ${key}, which runs a command`);
    if (equals < 0 || FILE_KEYS.test(key.toLowerCase())) findings.opaque = true;
    else findings.sources.push({ origin: `git ${key}`, source: setting.slice(equals + 1).replace(/^!/, '') });
  };

  let index = 1;
  while (index < values.length) {
    const value = values[index]!;
    if (value === '--') {
      index++;
      break;
    }
    if (!value.startsWith('-')) break;
    if (value === '-c') configValue(values[index + 1] ?? '', 'overrides');
    if (value === '--config-env' || value.startsWith('--config-env=')) {
      const setting = value === '--config-env' ? (values[index + 1] ?? '') : value.slice('--config-env='.length);
      const key = setting.split('=')[0]!;
      if (isCommandKey(key)) {
        findings.reasons.push(`overrides git's ${key} from the environment, which runs a command`);
        findings.opaque = true;
      }
    }
    index += GLOBAL_VALUED.includes(value) ? 2 : 1;
  }
  const subcommand = values[index];
  const rest = values.slice(index + 1);

  if (subcommand === 'config') {
    // `git config [--global] key value` and `git config set key value` both set a key.
    const operands = rest.filter((value) => !value.startsWith('-'));
    const [first, second, third] = operands[0] === 'set' ? operands.slice(1) : operands;
    if (first !== undefined && (second !== undefined || third !== undefined)) configValue(`${first}=${second ?? third}`, 'sets');
  }
  for (let position = 0; position < rest.length; position++) {
    const value = rest[position]!;
    const option = COMMAND_OPTIONS.exec(value);
    const rebaseExec = (subcommand === 'rebase' || subcommand === 'difftool') && (value === '-x' || value.startsWith('-x'));
    if (!option && !rebaseExec) continue;
    const name = option ? option[1]! : '-x';
    findings.reasons.push(`git ${subcommand ?? ''} ${name} runs a command`.replace(/\s+/g, ' '));
    const attached = option ? value.slice(name.length + 1) : value.slice(2);
    const source = attached !== '' ? attached : rest[position + 1];
    if (source !== undefined) findings.sources.push({ origin: `git ${name}`, source });
  }
  if ((subcommand === 'bisect' && rest[0] === 'run') || (subcommand === 'submodule' && rest.includes('foreach'))) {
    findings.reasons.push(`git ${subcommand} runs a command`);
    const command = rest.slice(skipOptions(rest, rest.indexOf(subcommand === 'bisect' ? 'run' : 'foreach') + 1, []));
    if (command.length > 0) findings.sources.push({ origin: `git ${subcommand}`, source: command.join(' ') });
  }
  if (subcommand === 'filter-branch') {
    findings.reasons.push('git filter-branch runs commands');
    findings.opaque = true;
  }
  return findings;
}
