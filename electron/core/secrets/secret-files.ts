/**
 * Secret values the patterns cannot know: those in the workspace's secret files (`.env*`, key
 * files, configured globs) and in secret-named environment variables. A bounded walk finds the
 * files (secret files are usually gitignored, so ignored files are looked at, but ignored folders
 * such as build output are not).
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { globMatcher } from '../tools/glob';
import { displayPath, realRoots } from '../tools/sandbox';
import { forEachSliced, walk, type WalkEntry } from '../tools/walk';

export interface SecretValue {
  value: string;
  /** Shown in the replacement, e.g. "secret-file", "environment". */
  label: string;
}

export interface WorkspaceScanOptions {
  /** More secret files, as globs (e.g. "config/credentials.yml", "*.secret"). */
  extraGlobs?: readonly string[];
  /** Default `process.env`; pass `{}` to take nothing from the environment. */
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** Entries visited per root before the walk stops. Default 50,000. */
  maxEntries?: number;
  /** How long the whole scan may take. Default 3 s. */
  maxMilliseconds?: number;
}

const SECRET_FILE_SIZE_LIMIT = 256 * 1024;
/** Other files are searched for private keys up to this size (a key is a few KB). */
const KEY_SEARCH_SIZE_LIMIT = 1024 * 1024;
/** A body longer than this (an RSA 8192 key is about 6.5 KB) is not a key. */
const MAX_KEY_BODY = 16 * 1024;
const MAX_SECRET_FILES = 200;
const MIN_VALUE_LENGTH = 6;
const MIN_ENVIRONMENT_LENGTH = 8;
/** Lines of a multi-line value or key body this long are redacted on their own too. */
const MIN_LINE_LENGTH = 16;

/** Templates hold placeholders, whose "values" would be redacted in every file that names them. */
const TEMPLATE_SUFFIXES = /\.(?:example|sample|template|dist|defaults)$/i;

/** Files that hold credentials by convention: netrc, git's credential store, package registries. */
const CREDENTIAL_FILES = new Set(['.netrc', '_netrc', '.git-credentials', '.npmrc', '.pypirc', '.pgpass', '.htpasswd']);

/** Whether a file is a secret file by its name (or one of `extra`'s globs). */
export function isSecretFile(relativePath: string, extra: ((path: string) => boolean) | undefined = undefined): boolean {
  const name = basename(relativePath);
  if (extra?.(relativePath)) return true;
  if (TEMPLATE_SUFFIXES.test(name)) return false;
  if (name === '.env' || name === '.envrc' || name.startsWith('.env.') || name.endsWith('.env')) return true;
  if (CREDENTIAL_FILES.has(name)) return true;
  if (/\.(?:pem|key|p8|ppk|keystore)$/i.test(name)) return true;
  return /^id_(?:rsa|dsa|ecdsa|ed25519)/.test(name) && !name.endsWith('.pub');
}

/** Key names that say their value is secret, whatever it looks like. */
const SECRET_KEY = /pass|pwd|secret|token|key|auth|credential|private|signature|salt|dsn|session|cookie/i;

/**
 * Values that are not worth redacting everywhere: words ("production", "localhost"), numbers,
 * versions, addresses, paths and URLs without credentials.
 */
function isOrdinary(value: string): boolean {
  return /^[A-Za-z][A-Za-z _-]*$/.test(value) || /^[\d.:/+ -]+$/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value) || /^[.~]?\/[\w./-]*$/.test(value);
}

function worthKeeping(key: string | undefined, value: string): boolean {
  if (value.length < MIN_VALUE_LENGTH) return false;
  return (key !== undefined && SECRET_KEY.test(key)) || !isOrdinary(value);
}

/** A value with its quotes and trailing comment removed; multi-line double quotes are joined. */
function unquote(raw: string, following: string[]): string {
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const close = raw.indexOf(quote, 1);
    if (close !== -1) return raw.slice(1, close);
    if (quote === '"') {
      const parts = [raw.slice(1)];
      while (following.length > 0) {
        const line = following.shift()!;
        const end = line.indexOf('"');
        if (end !== -1) return [...parts, line.slice(0, end)].join('\n');
        parts.push(line);
      }
      return parts.join('\n');
    }
    return raw.slice(1);
  }
  return raw.replace(/\s+#.*$/, '').trim();
}

function jsonValues(node: unknown, key: string | undefined, into: string[]): void {
  if (typeof node === 'string') {
    if (worthKeeping(key, node)) into.push(node);
  } else if (Array.isArray(node)) {
    for (const item of node) jsonValues(item, key, into);
  } else if (node && typeof node === 'object') {
    for (const [name, item] of Object.entries(node)) jsonValues(item, name, into);
  }
}

/** The values in a secret file's text that must not appear in any output. */
export function secretValuesOf(content: string): string[] {
  const values: string[] = [];
  const addWithLines = (value: string) => {
    values.push(value);
    if (value.includes('\n')) for (const line of value.split('\n')) if (line.trim().length >= MIN_LINE_LENGTH) values.push(line.trim());
  };
  if (content.includes('-----BEGIN')) {
    for (const line of content.split(/\r?\n/)) if (/^[A-Za-z0-9+/=]{16,}$/.test(line.trim())) values.push(line.trim());
    return values;
  }
  const trimmed = content.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      jsonValues(JSON.parse(trimmed), undefined, values);
      return values;
    } catch {
      // Not JSON after all: read it as lines.
    }
  }
  const lines = content.split(/\r?\n/);
  let assignments = 0;
  const bare: string[] = [];
  while (lines.length > 0) {
    const line = lines.shift()!;
    if (/^\s*(?:#|;|\/\/|$)/.test(line)) continue;
    const assignment = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (!assignment) {
      bare.push(line.trim());
      continue;
    }
    assignments++;
    const value = unquote(assignment[2]!, lines);
    if (worthKeeping(assignment[1], value)) addWithLines(value);
  }
  // A file of bare lines (a token file, a raw key) is secret line by line.
  if (assignments === 0) for (const line of bare) if (worthKeeping(undefined, line)) values.push(line);
  return values;
}

const SECRET_VARIABLE = /API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL/i;

/** Values of environment variables whose names say they are secret. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_ENVIRONMENT_LENGTH || !SECRET_VARIABLE.test(name)) continue;
    // A path names where a credential is, not the credential; booleans are settings.
    if (/^(?:[.~]?\/|[A-Za-z]:\\)/.test(value) || /^(?:true|false|enabled|disabled)$/i.test(value)) continue;
    values.push(value);
  }
  return values;
}

export interface WorkspaceScan {
  values: SecretValue[];
  /** Display paths of the secret files read. */
  files: string[];
  /** Display paths of secret files that could not be read (each once). */
  unreadable: string[];
  /** Absolute folders the walk visited (at most MAX_WATCHED_FOLDERS), for watching. */
  folders: string[];
}

/** Folders watched one by one where recursive watching is not native (Linux). */
export const MAX_WATCHED_FOLDERS = 2_000;

/**
 * Reads one file for the scan: a secret file's values, and from any file the bodies of the
 * private keys it holds. Returns undefined when there is nothing to take.
 */
export function valuesOfFile(absolute: string, relative: string, extra?: (path: string) => boolean): { values: SecretValue[]; secretFile: boolean } | 'unreadable' | undefined {
  const secretFile = isSecretFile(relative, extra);
  let size: number;
  try {
    const stats = statSync(absolute);
    if (!stats.isFile()) return undefined;
    size = stats.size;
  } catch {
    return secretFile ? 'unreadable' : undefined;
  }
  if (size > (secretFile ? SECRET_FILE_SIZE_LIMIT : KEY_SEARCH_SIZE_LIMIT)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch {
    return secretFile ? 'unreadable' : undefined;
  }
  const values: SecretValue[] = [];
  if (secretFile) for (const value of secretValuesOf(bytes.toString('utf8'))) values.push({ value, label: 'secret-file' });
  if (bytes.indexOf('PRIVATE KEY') !== -1) for (const value of privateKeyBodies(bytes.toString('utf8'))) values.push({ value, label: 'private-key' });
  return values.length > 0 || secretFile ? { values, secretFile } : undefined;
}

/**
 * Every line of every private key body in `text`, whatever holds it: a PEM file, a YAML block
 * (indented), Markdown (quoted), JSON (escaped `\n`), a string in code. Registered as values, a
 * body line is redacted wherever it shows up alone (a search hit, a tail, a page of a file).
 */
export function privateKeyBodies(text: string): string[] {
  const found: string[] = [];
  const unescaped = text.includes('\\n') ? text.replace(/\\r\\n|\\n|\\r/g, '\n') : text;
  const header = /-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----/g;
  for (let match = header.exec(unescaped); match; match = header.exec(unescaped)) {
    const end = unescaped.indexOf('-----END', header.lastIndex);
    const body = unescaped.slice(header.lastIndex, end === -1 ? header.lastIndex + MAX_KEY_BODY : Math.min(end, header.lastIndex + MAX_KEY_BODY));
    // A body line is base64 alone (indented in YAML, quoted in Markdown or a list); a line of other text
    // after the body began ends it, so a header that is not a key's teaches no words.
    const first = found.length;
    for (const line of body.split('\n')) {
      const bare = line
        .trim()
        .replace(/^(?:[>#*;]\s*)+/, '')
        .replace(/^["'`]|["'`,]+$/g, '');
      if (/^[A-Za-z0-9+/=]{16,}$/.test(bare)) found.push(bare);
      else if (found.length > first && bare !== '') break;
    }
  }
  return found;
}

/**
 * Finds the secret files of the roots and the private keys anywhere in them. Gitignored folders
 * are walked too (that is where `.env` files live); `.git` and `node_modules` are not. The walk is
 * breadth-first and bounded by entries and time, not depth, so a deep `.env` is found in any
 * tree of ordinary size and a huge tree cannot stall the session's start.
 */
export async function scanWorkspaceSecrets(roots: readonly string[], options: WorkspaceScanOptions = {}): Promise<WorkspaceScan> {
  const extra = extraMatcher(options.extraGlobs);
  const real = realRoots(roots);
  const scan: WorkspaceScan = { values: [], files: [], unreadable: [], folders: [...real] };
  const seen = new Set<string>();
  const deadline = performance.now() + (options.maxMilliseconds ?? 3_000);
  for (const root of real) {
    let visited = 0;
    const visit = (entry: WalkEntry): boolean => {
      if (++visited > (options.maxEntries ?? 50_000) || scan.files.length >= MAX_SECRET_FILES || performance.now() > deadline) return false;
      if (entry.kind === 'directory' && scan.folders.length < MAX_WATCHED_FOLDERS) scan.folders.push(entry.absolute);
      if (entry.kind !== 'file' || seen.has(entry.absolute)) return true;
      seen.add(entry.absolute);
      const result = valuesOfFile(entry.absolute, entry.relative, extra);
      if (result === 'unreadable') scan.unreadable.push(displayPath(entry.absolute, real));
      else if (result) {
        if (result.secretFile) scan.files.push(displayPath(entry.absolute, real));
        scan.values.push(...result.values);
      }
      return true;
    };
    await forEachSliced(walk(root, { gitignore: false }), visit, options.signal);
  }
  for (const value of environmentSecrets(options.env ?? process.env)) scan.values.push({ value, label: 'environment' });
  return scan;
}

export function extraMatcher(globs: readonly string[] | undefined): ((path: string) => boolean) | undefined {
  const matchers = (globs ?? []).map(globMatcher);
  return matchers.length > 0 ? (path: string) => matchers.some((matches) => matches(path)) : undefined;
}
