/**
 * MCP server configuration (SPEC §10): `<workspace>/.mcp.json` and `<data dir>/mcp.json`, both in
 * the common `{"mcpServers": {...}}` format. The workspace file wins for a name both declare,
 * even when its entry is malformed, so a project never silently runs the person's other server.
 *
 * A file that does not parse, or a server entry that is malformed, becomes an `McpConfigError`
 * naming the file, the server and the reason; every other server is still returned.
 *
 * `${VAR}` and `${VAR:-default}` in `command`, `args`, `env` values, `cwd`, `url` and `headers`
 * values are replaced from the process environment. A variable that is unset and has no default
 * makes the entry malformed, rather than starting a server with an empty credential.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

export const WORKSPACE_MCP_FILE = '.mcp.json';
export const USER_MCP_FILE = 'mcp.json';

/** Server names become part of tool names (`mcp__<server>__<tool>`, at most 64 characters). */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export interface StdioServerConfig {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; relative values are resolved against the declaring file's folder. */
  cwd?: string;
  /** The file that declared it. */
  file: string;
}

export interface HttpServerConfig {
  name: string;
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  file: string;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** A configuration file or server entry that could not be used. */
export class McpConfigError extends Error {
  constructor(
    readonly file: string,
    /** Undefined when the whole file is unusable. */
    readonly server: string | undefined,
    readonly reason: string,
    /** The transport the entry seems to ask for, for status displays. */
    readonly transport: 'stdio' | 'http' = 'stdio',
  ) {
    super(server === undefined ? `${file}: ${reason}` : `${file}: MCP server "${server}": ${reason}`);
    this.name = 'McpConfigError';
  }
}

export interface McpConfig {
  /** Sorted by name. */
  servers: McpServerConfig[];
  problems: McpConfigError[];
}

/** zod's message for a field that is missing or of the wrong type, naming the field. */
function expected(field: string, kind: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} must be ${kind}`) };
}

const stringMap = (field: string) => z.record(z.string(), z.string(expected('every value', 'a string')), expected(field, 'an object of strings'));

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string(expected('command', 'a string')).trim().min(1, 'command must not be empty'),
  args: z.array(z.string(expected('every argument', 'a string')), expected('args', 'an array of strings')).default([]),
  env: stringMap('env').default({}),
  cwd: z.string(expected('cwd', 'a string')).min(1, 'cwd must not be empty').optional(),
});

const httpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string(expected('url', 'a string')).min(1, 'url must not be empty'),
  headers: stringMap('headers').default({}),
});

const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp']);

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

type Expand = (text: string, field: string) => string;

function expander(environment: NodeJS.ProcessEnv): Expand {
  return (text, field) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, variable: string, fallback: string | undefined) => {
      const value = environment[variable];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      throw new Error(`${field} refers to \${${variable}}, which is not set in the environment`);
    });
}

function expandMap(map: Record<string, string>, field: string, expand: Expand): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, `${field}.${key}`)]));
}

function parseEntry(file: string, name: string, raw: unknown, expand: Expand): McpServerConfig {
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new McpConfigError(file, name, 'the name must be 1 to 32 letters, digits, "_" or "-" (it becomes part of tool names)');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new McpConfigError(file, name, 'the entry must be an object');
  const entry = raw as Record<string, unknown>;
  const type = entry.type;
  const isHttp = typeof type === 'string' ? HTTP_TYPES.has(type) : entry.command === undefined && entry.url !== undefined;
  if (type !== undefined && type !== 'stdio' && !isHttp) {
    throw new McpConfigError(file, name, `type ${JSON.stringify(type)} is not supported (use "stdio" or "http")`);
  }
  try {
    if (isHttp) {
      const parsed = httpEntry.safeParse(entry);
      if (!parsed.success) throw new McpConfigError(file, name, describeIssues(parsed.error), 'http');
      const url = expand(parsed.data.url, 'url');
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
        throw new McpConfigError(file, name, `url ${JSON.stringify(url)} is not an http(s) URL`, 'http');
      }
      return { name, transport: 'http', url, headers: expandMap(parsed.data.headers, 'headers', expand), file };
    }
    const parsed = stdioEntry.safeParse(entry);
    if (!parsed.success) throw new McpConfigError(file, name, describeIssues(parsed.error));
    const { command, args, env, cwd } = parsed.data;
    return {
      name,
      transport: 'stdio',
      command: expand(command, 'command'),
      args: args.map((arg, index) => expand(arg, `args[${index}]`)),
      env: expandMap(env, 'env', expand),
      ...(cwd === undefined ? {} : { cwd: resolve(dirname(file), expand(cwd, 'cwd')) }),
      file,
    };
  } catch (error) {
    if (error instanceof McpConfigError) throw error;
    throw new McpConfigError(file, name, (error as Error).message, isHttp ? 'http' : 'stdio');
  }
}

interface FileResult {
  servers: McpServerConfig[];
  problems: McpConfigError[];
  /** Every name the file declares, usable or not. */
  names: Set<string>;
}

/** Reads one file; a missing file declares nothing. */
export function readMcpFile(file: string, environment: NodeJS.ProcessEnv = process.env): FileResult {
  const result: FileResult = { servers: [], problems: [], names: new Set() };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    result.problems.push(new McpConfigError(file, undefined, `cannot be read: ${(error as Error).message}`));
    return result;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    result.problems.push(new McpConfigError(file, undefined, `is not valid JSON: ${(error as Error).message}`));
    return result;
  }
  const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
  if (!value || typeof value !== 'object' || Array.isArray(value) || !servers || typeof servers !== 'object' || Array.isArray(servers)) {
    result.problems.push(new McpConfigError(file, undefined, 'must be an object with an "mcpServers" object'));
    return result;
  }
  const expand = expander(environment);
  for (const [name, raw] of Object.entries(servers)) {
    result.names.add(name);
    try {
      result.servers.push(parseEntry(file, name, raw, expand));
    } catch (error) {
      result.problems.push(error as McpConfigError);
    }
  }
  return result;
}

export interface McpConfigLocation {
  /** The workspace root whose `.mcp.json` is read. */
  workspace: string;
  /** Cove's data folder (`COVE_HOME`, else `~/.cove`), whose `mcp.json` is read. */
  dataDir: string;
  /** Where `${VAR}` values come from; default `process.env`. */
  environment?: NodeJS.ProcessEnv;
}

export function mcpConfigFiles(location: Pick<McpConfigLocation, 'workspace' | 'dataDir'>): { workspace: string; user: string } {
  return { workspace: join(location.workspace, WORKSPACE_MCP_FILE), user: join(location.dataDir, USER_MCP_FILE) };
}

export function loadMcpConfig(location: McpConfigLocation): McpConfig {
  const files = mcpConfigFiles(location);
  const user = readMcpFile(files.user, location.environment);
  const workspace = readMcpFile(files.workspace, location.environment);
  const servers = [...workspace.servers, ...user.servers.filter((server) => !workspace.names.has(server.name))];
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const problems = [...workspace.problems, ...user.problems.filter((problem) => problem.server === undefined || !workspace.names.has(problem.server))];
  return { servers, problems };
}
