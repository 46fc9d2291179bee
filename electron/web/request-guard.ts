/**
 * Which requests `cove serve` answers at all. The Host header must name this server (a
 * loopback name, the address it was told to bind, or any IP literal) so a DNS-rebinding page,
 * whose requests carry the attacker's domain name, is refused before the token is even looked
 * at. WebSocket upgrades and anything but GET must also come from a page of this server
 * (`Origin`), since browsers let any site open a WebSocket to 127.0.0.1.
 */
import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

export interface ServerAddress {
  /** What the server was told to bind: 127.0.0.1, 0.0.0.0, ::, a name or an address. */
  bindHost: string;
  port: number;
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** The hostname of a Host header, when it names this server; undefined otherwise. */
export function allowedHost(header: string | undefined, server: ServerAddress): string | undefined {
  const match = header ? HOST_HEADER.exec(header.trim()) : null;
  if (!match) return undefined;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  if (port !== server.port) return undefined;
  const hostname = bare(match[1]!);
  // A rebinding page reaches us under its own domain name; an IP literal cannot be rebound.
  const known = LOOPBACK_NAMES.has(hostname) || hostname === bare(server.bindHost) || isIP(hostname) !== 0;
  return known ? hostname : undefined;
}

/**
 * The Origin must be this server: under a loopback name or the bound address (a tab opened on
 * localhost talking to 127.0.0.1 is the same server), or exactly the host the request came to.
 */
export function originAllowed(origin: string | undefined, requestHost: string, server: ServerAddress): boolean {
  if (!origin) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' || parsed.origin !== origin.replace(/\/$/, '')) return false;
  if (Number(parsed.port || 80) !== server.port) return false;
  const hostname = bare(parsed.hostname);
  return LOOPBACK_NAMES.has(hostname) || hostname === bare(server.bindHost) || hostname === requestHost;
}

function hostForUrl(hostname: string): string {
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

/**
 * Headers on every answer. The CSP matches the renderer's own meta policy, plus
 * frame-ancestors (which a meta tag cannot set) and a WebSocket source pinned to this server.
 */
export function securityHeaders(requestHost: string, port: number): Record<string, string> {
  const socket = `ws://${hostForUrl(requestHost)}:${port}`;
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${socket}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    // Browsers honour COOP only on trustworthy origins (loopback or https) and log an error elsewhere.
    ...(LOOPBACK_NAMES.has(requestHost) ? { 'cross-origin-opener-policy': 'same-origin' } : {}),
  };
}
