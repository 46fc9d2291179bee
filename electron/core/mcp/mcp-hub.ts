/**
 * The MCP servers of one workspace, shared by all of its sessions. The hub starts every
 * configured server at once, offers the tools of the connected ones through a tool source
 * (consulted once per run, so a server that comes back with another list changes the tools from
 * the next run on), reports each server's state for the settings screen, and stops them all.
 */
import type { Tool, ToolSource } from '../agent/types';
import { loadMcpConfig, type McpConfig, type McpConfigError } from './mcp-config';
import { withHashSuffix } from './mcp-names';
import { McpServerConnection, type ConnectionOptions, type McpServerStatus } from './mcp-server';

export type { McpServerStatus, ServerState } from './mcp-server';

export interface McpHubOptions {
  /** The workspace root: its `.mcp.json` is read, and stdio servers run there by default. */
  workspace: string;
  /** Cove's data folder (`COVE_HOME`, else `~/.cove`), whose `mcp.json` is read. */
  dataDir: string;
  /** Servers to run instead of reading the files. */
  config?: McpConfig;
  /** Source of `${VAR}` expansion and of the stdio servers' base environment; default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
  callTimeoutMs?: number;
  killGraceMs?: number;
  pingTimeoutMs?: number;
  restart?: Partial<ConnectionOptions['restart']>;
  /** Configuration problems and dropped tool names are logged here too. */
  log?: (message: string) => void;
  clientVersion?: string;
}

export type StatusListener = (status: McpServerStatus[]) => void;

const DEFAULTS = {
  startTimeoutMs: 20_000,
  callTimeoutMs: 10 * 60_000,
  killGraceMs: 2_000,
  pingTimeoutMs: 5_000,
  restart: { initialDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 5, stableAfterMs: 60_000 },
};

export class McpHub {
  private readonly connections: McpServerConnection[];
  private readonly configProblems: McpConfigError[];
  private readonly listeners = new Set<StatusListener>();
  private readonly renamed = new WeakMap<Tool, Tool>();
  private readonly log: (message: string) => void;
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: McpHubOptions) {
    const environment = options.environment ?? process.env;
    const config = options.config ?? loadMcpConfig({ workspace: options.workspace, dataDir: options.dataDir, environment });
    this.log = options.log ?? (() => {});
    this.configProblems = config.problems;
    const connectionOptions: ConnectionOptions = {
      startTimeoutMs: options.startTimeoutMs ?? DEFAULTS.startTimeoutMs,
      callTimeoutMs: options.callTimeoutMs ?? DEFAULTS.callTimeoutMs,
      killGraceMs: options.killGraceMs ?? DEFAULTS.killGraceMs,
      pingTimeoutMs: options.pingTimeoutMs ?? DEFAULTS.pingTimeoutMs,
      restart: { ...DEFAULTS.restart, ...options.restart },
      cwd: options.workspace,
      environment,
      clientVersion: options.clientVersion ?? '0.1.0',
    };
    this.connections = config.servers.map((server) => new McpServerConnection(server, connectionOptions, () => this.publish()));
  }

  /** Connects every server concurrently; resolves when each is connected or failed. Idempotent. */
  start(): Promise<void> {
    if (!this.starting) {
      for (const problem of this.configProblems) this.log(`MCP configuration: ${problem.message}`);
      this.starting = Promise.all(this.connections.map((connection) => connection.start())).then(() => {
        for (const connection of this.connections) {
          if (connection.state === 'failed') this.log(`MCP server ${connection.name} failed to start: ${connection.error}`);
          for (const warning of connection.warnings) this.log(warning);
        }
      });
    }
    return this.starting;
  }

  /** The tool source for the engine: the tools of the servers connected when a run starts. */
  toolSource(): ToolSource {
    return {
      name: 'mcp',
      tools: async (signal) => {
        // The first run of a fresh session waits for the servers' first start (bounded by its timeout).
        await abortable(this.start(), signal);
        return this.currentTools();
      },
    };
  }

  /** One entry per configured server, malformed entries included (as `failed`), sorted by name. */
  status(): McpServerStatus[] {
    const entries = this.connections.map((connection) => connection.status());
    for (const problem of this.configProblems) {
      if (problem.server === undefined) continue;
      entries.push({ name: problem.server, transport: problem.transport, state: 'failed', error: problem.message, toolCount: 0, stderrTail: '' });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Configuration files or entries that could not be used, with file, server and reason. */
  problems(): readonly McpConfigError[] {
    return this.configProblems;
  }

  /** Called with the whole status on every change of state or tool list; returns an unsubscribe. */
  onStatus(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a server again from scratch, e.g. after a person fixed what made it fail. */
  async restartServer(name: string): Promise<void> {
    const connection = this.server(name);
    if (!connection) throw new Error(`there is no MCP server named ${name} in this workspace`);
    if (this.closing) return;
    await connection.restart();
  }

  /** The connection of one server, for tests and diagnostics. */
  server(name: string): McpServerConnection | undefined {
    return this.connections.find((connection) => connection.name === name);
  }

  /** Stops every server: stdio processes (with their process groups) are gone when it resolves. */
  close(): Promise<void> {
    this.closing ??= Promise.all(this.connections.map((connection) => connection.close())).then(() => this.listeners.clear());
    return this.closing;
  }

  private currentTools(): Tool[] {
    if (this.closing) return [];
    const taken = new Set<string>();
    const tools: Tool[] = [];
    for (const connection of this.connections) {
      if (connection.state !== 'connected') continue;
      for (const tool of connection.tools) {
        const offered = taken.has(tool.name) ? this.rename(tool, connection.name) : tool;
        if (offered !== tool) this.log(`MCP tool ${tool.name} of server ${connection.name} is offered as ${offered.name}: the name was taken`);
        taken.add(offered.name);
        tools.push(offered);
      }
    }
    return tools;
  }

  /** Two servers can produce one name (`a` + `_b` and `a_` + `b`); the later server's tool is renamed. */
  private rename(tool: Tool, server: string): Tool {
    let copy = this.renamed.get(tool);
    if (!copy) {
      copy = { ...tool, name: withHashSuffix(tool.name, `${server}/${tool.name}`) };
      this.renamed.set(tool, copy);
    }
    return copy;
  }

  private publish(): void {
    if (this.listeners.size === 0) return;
    const status = this.status();
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch (error) {
        this.log(`MCP status listener failed: ${(error as Error).message}`);
      }
    }
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
