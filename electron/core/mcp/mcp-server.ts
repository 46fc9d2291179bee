/**
 * One configured MCP server: connects it, keeps its tool list current (`tools/list_changed`),
 * and restarts it with exponential backoff when it dies. Each connection attempt is a `Link`
 * (client + transport); a call holds the link it started on, so when that link dies the call
 * fails at once with the reason, whatever the server does next.
 */
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { ToolError, type Tool } from '../agent/types';
import type { McpServerConfig } from './mcp-config';
import { assignToolNames } from './mcp-names';
import { createMcpTool, LOOSE_TOOL_PAGE, readToolPage, schemaValidator, UnusableSchemaError, type CallOptions, type McpCaller } from './mcp-tool';
import { closeLink, describeError, openLink, seconds, type Link } from './mcp-link';
import { OutputTail } from './output-tail';
import { ProcessTransport } from './stdio-transport';

export type ServerState = 'starting' | 'connected' | 'restarting' | 'failed';

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: ServerState;
  error?: string;
  toolCount: number;
  stderrTail: string;
  /** Tools left out because the API would reject their schema, each with why. */
  warnings?: string[];
}

export interface ConnectionOptions {
  /** Connecting and listing tools must finish within this (default 20 s). */
  startTimeoutMs: number;
  /** A call with no answer and no progress for this long fails (default 10 min). */
  callTimeoutMs: number;
  /** How long a stopping stdio server may take after SIGTERM (default 2 s). */
  killGraceMs: number;
  /** After an HTTP transport error, how long a ping may take to prove the server alive (default 5 s). */
  pingTimeoutMs: number;
  /** Restart delays: initialDelayMs × 2ⁿ up to maxDelayMs; `failed` after maxAttempts in a row. */
  restart: { initialDelayMs: number; maxDelayMs: number; maxAttempts: number; stableAfterMs: number };
  /** The stdio workspace default cwd. */
  cwd: string;
  environment: NodeJS.ProcessEnv;
  clientVersion: string;
}

export class McpServerConnection implements McpCaller {
  readonly name: string;
  state: ServerState = 'starting';
  error: string | undefined;
  /** This server's tools under their offered names; empty unless connected. */
  tools: Tool[] = [];
  /** Why listed tools were left out (their schema cannot be sent to the API). */
  warnings: string[] = [];
  readonly tail = new OutputTail();
  private link: Link | undefined;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Counts closes, so work begun before a close cannot act on the server started after it. */
  private epoch = 0;
  /** Tool listings requested, and the latest one applied. */
  private listing = 0;
  private listed = 0;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
    private readonly changed: () => void,
  ) {
    this.name = config.name;
  }

  /** The stdio server's process id while it runs (tests kill it to simulate a crash). */
  get pid(): number | undefined {
    const transport = this.link?.transport;
    return transport instanceof ProcessTransport ? transport.pid : undefined;
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      transport: this.config.transport,
      state: this.state,
      ...(this.error === undefined ? {} : { error: this.error }),
      toolCount: this.state === 'connected' ? this.tools.length : 0,
      stderrTail: this.tail.toString(),
      ...(this.warnings.length > 0 ? { warnings: [...this.warnings] } : {}),
    };
  }

  /** The first start; a server that cannot start is `failed` at once (a person must fix it). */
  async start(): Promise<void> {
    this.failures = 0;
    clearTimeout(this.timer);
    this.setState('starting', undefined);
    const epoch = this.epoch;
    try {
      await this.connect();
    } catch (error) {
      if (epoch === this.epoch) this.setState('failed', (error as Error).message);
    }
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions) {
    const link = this.link;
    if (!link?.ready || this.state !== 'connected') throw ToolError.failed(this.unavailable());
    try {
      return await link.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        onprogress: options.onprogress,
        resetTimeoutOnProgress: true,
        timeout: this.options.callTimeoutMs,
      });
    } catch (error) {
      if (options.signal.aborted) throw ToolError.cancelled(`Cancelled; Cove told MCP server ${this.name} to stop ${tool}.`);
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        throw ToolError.failed(`MCP server ${this.name} stopped while the call was running: ${link.stopReason ?? 'the connection closed'}`);
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw ToolError.failed(`MCP server ${this.name} did not answer the call to ${tool} within ${seconds(this.options.callTimeoutMs)}`);
      }
      throw ToolError.failed(`MCP server ${this.name} could not run ${tool}: ${describeError(error)}`);
    }
  }

  /** Stops the server and starts it afresh, with a new restart budget. */
  async restart(): Promise<void> {
    await this.close();
    this.closed = false;
    await this.start();
  }

  /** Stops the server for good: kills the process (and its group) or ends the HTTP session. */
  async close(): Promise<void> {
    this.closed = true;
    this.epoch++;
    clearTimeout(this.timer);
    const link = this.link;
    this.link = undefined;
    this.tools = [];
    // Not published: a closing hub has no one left to tell, and a restart publishes `starting` next.
    this.state = 'failed';
    this.error = 'Cove closed the MCP server';
    if (link) await closeLink(link, this.error);
  }

  private unavailable(): string {
    if (this.state === 'restarting') return `MCP server ${this.name} is restarting (${this.error ?? 'it stopped'}); try again shortly.`;
    if (this.state === 'starting') return `MCP server ${this.name} is still starting; try again shortly.`;
    return `MCP server ${this.name} is not running: ${this.error ?? 'it stopped'}.`;
  }

  private setState(state: ServerState, error: string | undefined): void {
    if (state === this.state && error === this.error) return;
    this.state = state;
    this.error = error;
    this.changed();
  }

  private createLink(): Link {
    const link = openLink(this.config, { ...this.options, onStderr: (text) => this.tail.append(text) });
    const { client, transport } = link;
    // Set before connect: the client keeps this handler and adds its own.
    transport.onerror = (error) => this.onTransportError(link, error);
    client.onclose = () => this.onLinkClosed(link);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (link === this.link) this.refreshTools(link).catch((error) => this.tail.note(`could not refresh the tool list: ${describeError(error)}`));
    });
    return link;
  }

  private async connect(): Promise<void> {
    const link = this.createLink();
    this.link = link;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`did not answer within ${seconds(this.options.startTimeoutMs)}`)), this.options.startTimeoutMs);
    });
    try {
      await Promise.race([link.client.connect(link.transport).then(() => this.refreshTools(link)), deadline]);
    } catch (error) {
      const exit = link.transport instanceof ProcessTransport ? link.transport.exitReason : undefined;
      await closeLink(link, 'it failed to start');
      if (this.link === link) this.link = undefined;
      throw new Error(this.startFailure(error, exit));
    } finally {
      clearTimeout(timer);
    }
    if (this.closed || this.link !== link) return closeLink(link, 'Cove closed the MCP server');
    link.ready = true;
    this.timer = setTimeout(() => (this.failures = 0), this.options.restart.stableAfterMs);
    this.timer.unref();
    this.setState('connected', undefined);
  }

  private startFailure(error: unknown, exit: string | undefined): string {
    const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    if (this.config.transport === 'http' && error instanceof TypeError) return `cannot reach ${this.config.url}: ${describeError(error)}`;
    if (!closed || !exit) return describeError(error);
    const lastLine = this.tail.toString().trimEnd().split('\n').at(-1)?.trim();
    return `${exit} before it answered${lastLine ? ` (stderr: ${lastLine})` : ''}`;
  }

  private async refreshTools(link: Link): Promise<void> {
    const request = ++this.listing;
    const definitions: McpToolDefinition[] = [];
    const warnings: string[] = [];
    // A server may offer only prompts or resources; it then contributes no tools.
    let more = link.client.getServerCapabilities()?.tools !== undefined;
    let cursor: string | undefined;
    while (more) {
      const params = cursor === undefined ? undefined : { cursor };
      const raw = await link.client.request({ method: 'tools/list', params }, LOOSE_TOOL_PAGE, { timeout: this.options.startTimeoutMs });
      const page = readToolPage(raw);
      definitions.push(...page.tools);
      warnings.push(...page.problems.map((problem) => `MCP server ${this.name}: ${problem}`));
      cursor = raw.nextCursor;
      more = Boolean(cursor);
    }
    // A listing that started later and already finished, or a newer connection, has the last word.
    if (request < this.listed || link !== this.link) return;
    this.listed = request;
    const names = assignToolNames(
      this.name,
      definitions.map((tool) => tool.name),
    );
    const validator = schemaValidator();
    const tools: Tool[] = [];
    for (const definition of definitions) {
      try {
        tools.push(createMcpTool(this, definition, names.get(definition.name)!, validator));
      } catch (error) {
        if (!(error instanceof UnusableSchemaError)) throw error;
        warnings.push(`MCP server ${this.name}: tool ${definition.name} is left out: ${error.message}`);
      }
    }
    this.tools = tools;
    this.warnings = warnings;
    if (link.ready) this.changed();
  }

  private onTransportError(link: Link, error: Error): void {
    if (link.transport instanceof ProcessTransport) {
      this.tail.note(error.message);
      return;
    }
    // HTTP transports report a dead server only as errors; a ping tells a dead server from a hiccup.
    if (!link.ready || link.closing || link.checking || link !== this.link) return;
    link.checking = true;
    link.client
      .ping({ timeout: this.options.pingTimeoutMs })
      .then(
        () => undefined,
        () => {
          link.stopReason = `the connection was lost (${describeError(error)})`;
          return link.client.close();
        },
      )
      .catch(() => undefined)
      .finally(() => (link.checking = false));
  }

  private onLinkClosed(link: Link): void {
    if (link.transport instanceof ProcessTransport) link.stopReason ??= link.transport.exitReason;
    link.stopReason ??= 'the connection closed';
    if (!link.ready || link.closing || link !== this.link || this.closed) return;
    this.link = undefined;
    this.tools = [];
    this.tail.note(`server stopped: ${link.stopReason}`);
    this.scheduleRestart(link.stopReason);
  }

  private scheduleRestart(reason: string): void {
    clearTimeout(this.timer);
    this.failures++;
    const { initialDelayMs, maxDelayMs, maxAttempts } = this.options.restart;
    if (this.failures > maxAttempts) {
      this.setState('failed', `stopped ${maxAttempts + 1} times in a row; last: ${reason}`);
      return;
    }
    const delay = Math.min(initialDelayMs * 2 ** (this.failures - 1), maxDelayMs);
    this.setState('restarting', `${reason}; restart ${this.failures} of ${maxAttempts} in ${seconds(delay)}`);
    const epoch = this.epoch;
    this.timer = setTimeout(() => {
      this.tail.note(`restarting (attempt ${this.failures} of ${maxAttempts})`);
      this.connect().catch((error) => {
        if (epoch === this.epoch) this.scheduleRestart((error as Error).message);
      });
    }, delay);
  }
}
