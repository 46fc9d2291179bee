/**
 * The ripgrep engine. ripgrep is told to follow exactly the rules the built-in walker follows
 * (only `.gitignore` files, hidden files included, `.git` and `node_modules` skipped, symlinks not
 * followed, the same size limit), and its lines go through the same collector, so both engines
 * answer alike. The include glob narrows ripgrep's file list by name (as a file type, which,
 * unlike `--glob`, never overrides .gitignore); the exact glob is checked on our side.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ToolError } from '../agent/types';
import { TEXT_SIZE_LIMIT } from './fs-utils';
import type { MatchCollector } from './search-results';
import type { SearchRequest } from './search-pattern';

let located: string | null | undefined;

/** The ripgrep executable on PATH, or null. Looked up once per process. */
export function findRipgrep(): string | null {
  if (located !== undefined) return located;
  const name = process.platform === 'win32' ? 'rg.exe' : 'rg';
  located = null;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!folder) continue;
    try {
      accessSync(join(folder, name), constants.X_OK);
      located = join(folder, name);
      break;
    } catch {
      // not in this folder
    }
  }
  return located;
}

/** The name part of an include glob, if ripgrep can use it as a file type. */
function typeGlob(include: string | undefined): string | undefined {
  if (include === undefined) return undefined;
  const name = include.slice(include.lastIndexOf('/') + 1);
  if (name === '' || name.includes('**') || name.includes(':') || name.startsWith('!')) return undefined;
  return name;
}

export function ripgrepArguments(request: SearchRequest): string[] {
  const args = [
    '--no-config',
    '--null',
    '--line-number',
    '--with-filename',
    '--no-heading',
    '--color=never',
    '--no-messages',
    '--hidden',
    '--no-require-git',
    '--no-ignore-dot',
    '--no-ignore-exclude',
    '--no-ignore-global',
    '--crlf',
    '--engine=auto',
    `--max-filesize=${TEXT_SIZE_LIMIT}`,
    request.caseSensitive ? '--case-sensitive' : '--ignore-case',
    '--glob=!.git',
    '--glob=!node_modules',
  ];
  const name = typeGlob(request.include);
  if (name) args.push(`--type-add=include:${name}`, '--type=include');
  args.push('--regexp', request.pattern, '.');
  return args;
}

function isPatternError(stderr: string): boolean {
  return /regex parse error|error parsing|PCRE2|look-?around|backreferences/i.test(stderr);
}

export async function searchRipgrep(executable: string, request: SearchRequest, collector: MatchCollector, signal: AbortSignal): Promise<void> {
  const child = spawn(executable, ripgrepArguments(request), {
    cwd: request.folder,
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
  });
  let pending = '';
  let stderr = '';
  let stopped = false;
  const take = (line: string) => {
    if (stopped) return;
    const nul = line.indexOf('\0');
    const colon = line.indexOf(':', nul + 1);
    if (nul === -1 || colon === -1) return;
    // ripgrep prints "./" before paths under the folder it was given.
    const path = line.startsWith('./') ? line.slice(2, nul) : line.slice(0, nul);
    if (!request.admits(path)) return;
    let text = line.slice(colon + 1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (!collector.add(request.prefix + path, Number(line.slice(nul + 1, colon)), text)) {
      stopped = true;
      child.kill();
    }
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) take(line);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).catch((error: unknown) => {
    if (signal.aborted) throw ToolError.cancelled('Search cancelled');
    throw error;
  });
  if (signal.aborted) throw ToolError.cancelled('Search cancelled');
  if (pending) take(pending);
  if (stopped || code === 0 || code === 1) return;
  if (isPatternError(stderr)) {
    const reason = stderr.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ');
    throw ToolError.invalidArgs(`pattern ${JSON.stringify(request.pattern)} is not a valid regular expression for ripgrep: ${reason}`);
  }
  // Exit 2 with results means some files could not be read; the results stand.
  if (collector.total === 0 && stderr.trim()) throw ToolError.failed(`search failed: ${stderr.trim().split('\n')[0]}`);
}
