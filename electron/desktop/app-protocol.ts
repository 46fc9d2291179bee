/**
 * Serves the built renderer on `app://cove/` (see app-origin.ts for why not file://). The scheme
 * must be declared privileged before the app is ready; the handler is installed after.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { APP_SCHEME } from './app-origin';
import { resolveRendererFile, responseHeaders } from './renderer-files';

export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    // standard: real origin and relative URLs; secure: a secure context like https. The renderer
    // is an ES-module bundle split into chunks: Chromium fetches module scripts and import()
    // chunks in CORS mode, which a custom scheme passes only with corsEnabled (and fetch support).
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
  ]);
}

export function serveRenderer(rendererDir: string, log: (message: string) => void): void {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'only GET and HEAD');
    const file = resolveRendererFile(request.url, rendererDir);
    if ('status' in file) {
      log(`refused ${request.url}: ${file.reason}`);
      return refusal(file.status, file.reason);
    }
    try {
      const body = await readFile(file.path);
      return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: responseHeaders(file.contentType) });
    } catch {
      return refusal(404, 'no such file in the renderer build');
    }
  });
}

function refusal(status: number, reason: string): Response {
  return new Response(reason, { status, headers: responseHeaders('text/plain; charset=utf-8') });
}
