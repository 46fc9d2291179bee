/**
 * One connection attempt to an MCP server: an SDK client and its transport. A server that dies
 * and comes back gets a new link, so a call can always tell which connection it was made on.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from './mcp-config';
import { ProcessTransport, serverEnvironment } from './stdio-transport';

export interface Link {
  client: Client;
  transport: ProcessTransport | StreamableHTTPClientTransport;
  /** Set once initialized; before that, the connect attempt owns failures. */
  ready: boolean;
  /** True when Cove closes it on purpose: no restart. */
  closing: boolean;
  /** Why it stopped, for the calls it was carrying. */
  stopReason?: string;
  /** An HTTP liveness check is under way. */
  checking: boolean;
}

export interface LinkSettings {
  clientVersion: string;
  environment: NodeJS.ProcessEnv;
  /** Default cwd of stdio servers. */
  cwd: string;
  killGraceMs: number;
  onStderr(text: string): void;
}

export function openLink(config: McpServerConfig, settings: LinkSettings): Link {
  const client = new Client({ name: 'cove', version: settings.clientVersion }, { capabilities: {} });
  const transport =
    config.transport === 'stdio'
      ? new ProcessTransport({
          command: config.command,
          args: config.args,
          env: serverEnvironment(config.env, settings.environment),
          cwd: config.cwd ?? settings.cwd,
          killGraceMs: settings.killGraceMs,
          onStderr: settings.onStderr,
        })
      : new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
  return { client, transport, ready: false, closing: false, checking: false };
}

export async function closeLink(link: Link, reason: string): Promise<void> {
  link.closing = true;
  link.stopReason ??= reason;
  if (link.transport instanceof StreamableHTTPClientTransport && link.ready) {
    // Ends the server-side session politely; a dead server must not hold up closing.
    await Promise.race([link.transport.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }
  await link.client.close().catch(() => undefined);
  // The client closes only a transport it started; a spawn that failed still needs its group killed.
  await link.transport.close().catch(() => undefined);
}

/** An error's message, with the system error code fetch hides in `cause` (ECONNREFUSED…). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message;
  return detail && !message.includes(detail) ? `${message} (${detail})` : message;
}

export function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`;
}
