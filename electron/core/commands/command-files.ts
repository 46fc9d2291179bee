/**
 * Custom slash commands: Markdown files whose body is a prompt, in Claude Code's layout so a
 * person's existing commands work unchanged. Looked up in this order, the first file that claims
 * a name winning: each workspace's `.cove/commands/`, then its `.claude/commands/`, then the
 * user's `COVE_HOME/commands/` and `~/.claude/commands/`. A subfolder is a namespace:
 * `.cove/commands/git/commit.md` is `/git:commit`. A file whose front matter cannot be read is
 * still listed, with its problem, so the person sees why `/name` does not run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parseFrontMatter, stringField } from '../project/front-matter';

export type CommandScope = 'project' | 'user';

export interface CommandFile {
  name: string;
  description: string;
  argumentHint: string | null;
  scope: CommandScope;
  file: string;
  /** The prompt template; empty when `problem` is set. */
  body: string;
  /** Why the file cannot be used, naming it. */
  problem: string | null;
}

const MAX_COMMAND_BYTES = 256 * 1024;
const MAX_DEPTH = 3;
export const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*(:[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;
/** Keys Claude Code's command files use; read so their files are not reported, not all acted on (see README). */
const KNOWN_KEYS = new Set(['description', 'argument-hint', 'allowed-tools', 'model', 'disable-model-invocation']);

export interface CommandFolders {
  workspaces: readonly string[];
  coveHome: string;
  /** The user's home, for `~/.claude/commands`; the process's own by default. */
  home?: string;
}

export function commandFolders(options: CommandFolders): Array<{ dir: string; scope: CommandScope }> {
  const home = options.home ?? homedir();
  return [
    ...options.workspaces.flatMap((root) => [
      { dir: join(root, '.cove', 'commands'), scope: 'project' as const },
      { dir: join(root, '.claude', 'commands'), scope: 'project' as const },
    ]),
    { dir: join(options.coveHome, 'commands'), scope: 'user' },
    { dir: join(home, '.claude', 'commands'), scope: 'user' },
  ];
}

export function loadCommandFiles(options: CommandFolders): CommandFile[] {
  const byName = new Map<string, CommandFile>();
  for (const { dir, scope } of commandFolders(options)) {
    for (const file of markdownFiles(dir, 0)) {
      const name = relative(dir, file).slice(0, -'.md'.length).split(sep).join(':');
      if (!COMMAND_NAME.test(name) || byName.has(name)) continue;
      byName.set(name, readCommand(name, file, scope));
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function markdownFiles(dir: string, depth: number): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return depth < MAX_DEPTH ? markdownFiles(path, depth + 1) : [];
      return entry.name.endsWith('.md') && (entry.isFile() || entry.isSymbolicLink()) ? [path] : [];
    });
}

function readCommand(name: string, file: string, scope: CommandScope): CommandFile {
  const base = { name, scope, file, description: '', argumentHint: null, body: '' };
  try {
    const size = statSync(file).size;
    if (size > MAX_COMMAND_BYTES) return { ...base, problem: `${file}: ${size} bytes, over the ${MAX_COMMAND_BYTES}-byte limit for a command file` };
    const parsed = parseFrontMatter(readFileSync(file, 'utf8'), file);
    const unknown = Object.keys(parsed.fields).filter((key) => !KNOWN_KEYS.has(key));
    if (unknown.length > 0) return { ...base, problem: `${file}: unknown front matter key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${[...KNOWN_KEYS].join(', ')})` };
    for (const key of ['description', 'argument-hint']) {
      if (Array.isArray(parsed.fields[key])) return { ...base, problem: `${file}: ${key} must be one line of text, not a list` };
    }
    if (!parsed.body.trim()) return { ...base, problem: `${file}: the command has no prompt after its front matter` };
    return {
      ...base,
      description: stringField(parsed, 'description') ?? firstLine(parsed.body),
      argumentHint: stringField(parsed, 'argument-hint') ?? null,
      body: parsed.body,
      problem: null,
    };
  } catch (error) {
    return { ...base, problem: (error as Error).message };
  }
}

function firstLine(body: string): string {
  const line = body.split('\n').find((text) => text.trim()) ?? '';
  return line
    .replace(/^#+\s*/, '')
    .trim()
    .slice(0, 120);
}
