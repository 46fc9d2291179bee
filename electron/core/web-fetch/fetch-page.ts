/**
 * One http(s) GET with node's own client, so the connection can be pinned to the address that
 * was checked (see address-check.ts). Redirects are followed by hand, each hop checked again:
 * within the same host they are followed; to another host only when `hostAllowed` says a rule
 * covers it, since permission is per host. The body is read up to a byte cap and the rest
 * dropped unread.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { AddressRefused, checkedLookup, checkLiteral } from './address-check';
import { normalizeHost } from './host-rule';

export interface HostAccess {
  /** Whether a rule allows fetching from this host at all (for following a redirect there). */
  allowed(host: string): boolean;
  /** Whether an explicit rule names this host, which opens private addresses. */
  privateAllowed(host: string): boolean;
}

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was longer than the cap and was cut. */
  truncated: boolean;
  /** A redirect to another host that no rule covers: not followed. */
  redirectedTo?: string;
}

export const MAX_REDIRECTS = 10;
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

export async function fetchPage(url: string, access: HostAccess, signal: AbortSignal, maxBytes = MAX_BODY_BYTES): Promise<FetchedPage> {
  let current = new URL(url);
  const firstHost = normalizeHost(current.hostname);
  for (let hop = 0; ; hop++) {
    const response = await get(current, access.privateAllowed(normalizeHost(current.hostname)), signal);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new Error(`${url} redirected more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`${current.href} redirects to ${next.protocol} URL, which web_fetch does not follow`);
      const host = normalizeHost(next.hostname);
      if (host !== firstHost && !access.allowed(host)) {
        // The next hop's address is checked all the same: a redirect into the network is refused outright.
        await probe(next, access.privateAllowed(host), signal);
        return { url: current.href, status: response.statusCode, contentType: '', body: Buffer.alloc(0), truncated: false, redirectedTo: next.href };
      }
      current = next;
      continue;
    }
    const { body, truncated } = await readCapped(response, maxBytes, signal);
    return { url: current.href, status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), body, truncated };
  }
}

function get(url: URL, privateAllowed: boolean, signal: AbortSignal, method = 'GET'): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    checkLiteral(normalizeHost(url.hostname), privateAllowed);
    const request = client.request(
      url,
      {
        method,
        signal,
        timeout: TIMEOUT_MS,
        lookup: checkedLookup(normalizeHost(url.hostname), privateAllowed) as never,
        headers: { 'user-agent': 'Cove web_fetch', accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5', 'accept-encoding': 'identity' },
      },
      resolve,
    );
    request.on('timeout', () => request.destroy(new Error(`${url.host} did not answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end();
  });
}

/** Connects to a redirect's target only to have its address checked; nothing is read. */
async function probe(url: URL, privateAllowed: boolean, signal: AbortSignal): Promise<void> {
  try {
    (await get(url, privateAllowed, signal, 'HEAD')).resume();
  } catch (error) {
    if (error instanceof AddressRefused) {
      throw new Error(`refused: the page redirects to ${url.href}, and ${(error as Error).message}`);
    }
    // An unreachable public target is the model's to retry; only the address check matters here.
  }
}

function readCapped(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => response.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        signal.removeEventListener('abort', onAbort);
        response.destroy();
        resolve({ body: Buffer.concat(chunks), truncated: true });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    response.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve({ body: Buffer.concat(chunks), truncated: false });
    });
    response.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      if (size < maxBytes) reject(error);
    });
  });
}
