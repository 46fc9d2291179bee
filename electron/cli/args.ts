/**
 * Flag parsing for `cove run`, `cove serve` and `cove sessions` (SPEC §12). Every mistake becomes a
 * UsageError whose message names the flag, so the CLI can print one line and exit 2 before
 * anything is sent anywhere.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/permission-modes';
import { TOKEN_PATTERN } from '../web/token';
import { SetupError } from '../core/errors';

export class UsageError extends SetupError {}

export interface RunArgs {
  workspaces: string[];
  model?: string;
  /** Absent: the session's own mode, else the settings files' defaultMode, else default. */
  permissionMode?: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
  maxTurns?: number;
  json: boolean;
  resume?: string;
  continue: boolean;
  /** Image files sent with the prompt. */
  images: string[];
  /** `--worktree`: a new session works in a git worktree of its own (README "A worktree per session"). */
  worktree: boolean;
  prompt: string;
}

export interface ApproveArgs {
  workspaces: string[];
  /** Only list what a workspace brings, approving nothing. */
  list: boolean;
  json: boolean;
}

export interface ServeArgs {
  /** Undefined: the default port, or any free one when it is taken. */
  port?: number;
  host: string;
  token?: string;
}

export interface SessionsArgs {
  search?: string;
  /** A session whose permission decisions to list. */
  audit?: string;
  /** A session whose changes to list, prompt by prompt, with diffs. */
  changes?: string;
  /** A worktree session to merge into the branch its repository was on, or to discard. */
  merge?: string;
  discard?: string;
  json: boolean;
  /** How many sessions the list shows, newest first; undefined with --all. */
  limit: number | undefined;
}

/** The list's length when neither --limit nor --all is given. */
export const DEFAULT_SESSIONS_LIMIT = 200;

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // node's messages name the flag ("Unknown option '--foo'. To specify…"); keep the first sentence.
    const first = (error as Error).message.split('\n')[0]!.split('. ')[0]!.replace(/\.$/, '');
    throw new UsageError(`cove ${command}: ${first}`);
  }
}

export function parseRunArgs(argv: string[], stdinPrompt?: string): RunArgs {
  const { values, positionals } = parse(
    argv,
    {
      workspace: { type: 'string', short: 'w', multiple: true },
      model: { type: 'string', short: 'm' },
      'permission-mode': { type: 'string' },
      allow: { type: 'string', multiple: true },
      ask: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      'max-turns': { type: 'string' },
      json: { type: 'boolean' },
      resume: { type: 'string' },
      continue: { type: 'boolean', short: 'c' },
      image: { type: 'string', short: 'i', multiple: true },
      worktree: { type: 'boolean' },
    },
    'run',
  );
  const mode = values['permission-mode'] as string | undefined;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`cove run: --permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got '${mode}')`);
  }
  let maxTurns: number | undefined;
  if (values['max-turns'] !== undefined) {
    const raw = values['max-turns'] as string;
    maxTurns = Number(raw);
    if (!/^\d+$/.test(raw) || maxTurns < 1) throw new UsageError(`cove run: --max-turns must be a whole number of at least 1 (got '${raw}')`);
  }
  if (values.resume !== undefined && values.continue) throw new UsageError('cove run: use either --resume ID or --continue, not both');
  if (values.worktree && (values.resume !== undefined || values.continue)) {
    throw new UsageError('cove run: --worktree starts a new session; a resumed one keeps the folders it has');
  }
  if (values.resume !== undefined && values.workspace) {
    throw new UsageError('cove run: --workspace cannot be combined with --resume (a resumed session keeps its own workspaces)');
  }
  // Checked by `cove run` itself (checkRuleFlags): the rule language knows every tool, and
  // loading them all here would slow `cove help` and `cove sessions` down too.
  const rules = (name: 'allow' | 'ask' | 'deny') => (values[name] as string[] | undefined) ?? [];
  const prompt = positionals.join(' ').trim() || stdinPrompt?.trim() || '';
  if (!prompt) throw new UsageError('cove run: missing PROMPT (give it as the last argument, or on standard input)');
  return {
    workspaces: (values.workspace as string[] | undefined) ?? [],
    model: values.model as string | undefined,
    permissionMode: mode as PermissionMode | undefined,
    allow: rules('allow'),
    ask: rules('ask'),
    deny: rules('deny'),
    maxTurns,
    json: Boolean(values.json),
    resume: values.resume as string | undefined,
    continue: Boolean(values.continue),
    images: (values.image as string[] | undefined) ?? [],
    worktree: Boolean(values.worktree),
    prompt,
  };
}

export function parseSessionsArgs(argv: string[]): SessionsArgs {
  const { values, positionals } = parse(
    argv,
    {
      search: { type: 'string', short: 's' },
      audit: { type: 'string' },
      changes: { type: 'string' },
      merge: { type: 'string' },
      discard: { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string', short: 'n' },
      all: { type: 'boolean' },
    },
    'sessions',
  );
  if (positionals.length > 0) throw new UsageError(`cove sessions: unexpected argument '${positionals[0]}'`);
  const search = values.search as string | undefined;
  const audit = values.audit as string | undefined;
  if (search !== undefined && search.trim() === '') throw new UsageError('cove sessions: --search needs some text');
  if (search !== undefined && audit !== undefined) throw new UsageError('cove sessions: use either --search or --audit, not both');
  const changes = values.changes as string | undefined;
  if (changes !== undefined && (search !== undefined || audit !== undefined)) throw new UsageError('cove sessions: --changes goes alone (not with --search or --audit)');
  const merge = values.merge as string | undefined;
  const discard = values.discard as string | undefined;
  const chosen = [search, audit, changes, merge, discard].filter((value) => value !== undefined).length;
  if ((merge !== undefined || discard !== undefined) && chosen > 1) throw new UsageError('cove sessions: --merge and --discard go alone, one session at a time');
  const rawLimit = values.limit as string | undefined;
  if (rawLimit !== undefined && values.all) throw new UsageError('cove sessions: use either --limit N or --all, not both');
  if ((rawLimit !== undefined || values.all) && chosen > 0)
    throw new UsageError('cove sessions: --limit and --all size the list of sessions (not --search, --audit, --changes, --merge or --discard)');
  if (rawLimit !== undefined && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1)) throw new UsageError(`cove sessions: --limit must be a whole number of at least 1 (got '${rawLimit}')`);
  return {
    search,
    audit,
    ...(changes !== undefined ? { changes } : {}),
    ...(merge !== undefined ? { merge } : {}),
    ...(discard !== undefined ? { discard } : {}),
    json: Boolean(values.json),
    limit: values.all ? undefined : rawLimit !== undefined ? Number(rawLimit) : DEFAULT_SESSIONS_LIMIT,
  };
}

export function parseApproveArgs(argv: string[]): ApproveArgs {
  const { values, positionals } = parse(argv, { workspace: { type: 'string', short: 'w', multiple: true }, list: { type: 'boolean' }, json: { type: 'boolean' } }, 'approve');
  if (positionals.length > 0) throw new UsageError(`cove approve: unexpected argument '${positionals[0]}' (name a folder with --workspace)`);
  return { workspaces: (values.workspace as string[] | undefined) ?? [], list: Boolean(values.list), json: Boolean(values.json) };
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const { values, positionals } = parse(argv, { port: { type: 'string', short: 'p' }, host: { type: 'string' }, token: { type: 'string' } }, 'serve');
  if (positionals.length > 0) throw new UsageError(`cove serve: unexpected argument '${positionals[0]}'`);
  let port: number | undefined;
  if (values.port !== undefined) {
    const raw = values.port as string;
    port = Number(raw);
    if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`cove serve: --port must be a port number from 0 to 65535 (got '${raw}')`);
  }
  const host = ((values.host as string | undefined) ?? '127.0.0.1').trim();
  if (!/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]+|[A-Za-z0-9.-]+)$/.test(host)) throw new UsageError(`cove serve: --host must be an address or a host name (got '${host}')`);
  const token = values.token as string | undefined;
  if (token !== undefined && !TOKEN_PATTERN.test(token)) {
    throw new UsageError('cove serve: --token must be 16 to 256 characters of letters, digits and - _ . ~');
  }
  return { port, host, token };
}

export interface RewindArgs {
  sessionId: string;
  /** The prompt to put the files back to before; undefined: the latest prompt that changed files. */
  to?: number;
  dryRun: boolean;
  /** Overwrite files changed by hand since the last checkpoint. */
  force: boolean;
  /** `--conversation`: cut the conversation back to before that prompt as well. */
  conversation: boolean;
  /** `--undo-revert SEQ`: undo the review pane's revert `#SEQ` (as `cove sessions --changes` numbers it) instead of rewinding. */
  undoRevert?: number;
}

export function parseRewindArgs(argv: string[]): RewindArgs {
  const { values, positionals } = parse(
    argv,
    { to: { type: 'string' }, 'dry-run': { type: 'boolean' }, force: { type: 'boolean' }, conversation: { type: 'boolean' }, 'undo-revert': { type: 'string' } },
    'rewind',
  );
  if (positionals.length === 0) throw new UsageError('cove rewind: name the session to rewind (cove rewind ID; see cove sessions)');
  if (positionals.length > 1) throw new UsageError(`cove rewind: unexpected argument '${positionals[1]}'`);
  let to: number | undefined;
  if (values.to !== undefined) {
    to = Number(values.to);
    if (!/^\d+$/.test(values.to as string) || to < 1) throw new UsageError(`cove rewind: --to must be a prompt number from 1 (got '${values.to}')`);
  }
  let undoRevert: number | undefined;
  if (values['undo-revert'] !== undefined) {
    const given = values['undo-revert'] as string;
    undoRevert = Number(given.replace(/^#/, ''));
    if (!/^#?\d+$/.test(given) || undoRevert < 1) throw new UsageError(`cove rewind: --undo-revert takes the number of a revert, as cove sessions --changes lists it (#N; got '${given}')`);
    const others = [values.to !== undefined && '--to', values.force && '--force', values.conversation && '--conversation'].filter(Boolean);
    if (others.length > 0) throw new UsageError(`cove rewind: --undo-revert puts back exactly what that revert changed; it takes no ${others.join(' or ')}`);
  }
  return {
    sessionId: positionals[0]!,
    to,
    dryRun: Boolean(values['dry-run']),
    force: Boolean(values.force),
    conversation: Boolean(values.conversation),
    ...(undoRevert === undefined ? {} : { undoRevert }),
  };
}
