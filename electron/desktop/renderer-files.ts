/**
 * Maps an `app://cove/…` request to a file of the built renderer (dist/renderer), refusing
 * anything that would leave that folder: `..` smuggled in as %2F or %2E, backslashes (a
 * separator on Windows), NUL bytes, other hosts. The response headers carry the CSP, so it
 * holds even for a page whose own <meta> tag were missing or looser.
 */
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-origin';
// The same built renderer files the web host serves, so one table of their types.
import { CONTENT_TYPES } from '../web/static-files';

/**
 * Scripts, styles, fonts and images from our origin only; no eval, no inline script, no
 * network (the desktop host talks to main over IPC, never over the network).
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export type RendererFile = { path: string; contentType: string } | { status: 400 | 403 | 404; reason: string };

export function resolveRendererFile(requestUrl: string, root: string): RendererFile {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { status: 400, reason: 'malformed URL' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { status: 404, reason: `not served here: ${url.protocol}//${url.host}` };
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { status: 400, reason: 'malformed %-escape in the path' };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return { status: 400, reason: 'the path holds a NUL or a backslash' };
  if (pathname.endsWith('/')) pathname += 'index.html';
  const base = resolve(root);
  const path = resolve(base, `.${pathname}`);
  const inside = relative(base, path);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return { status: 403, reason: 'the path leaves the renderer folder' };
  }
  return { path, contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' };
}

export function responseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': RENDERER_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  };
}
