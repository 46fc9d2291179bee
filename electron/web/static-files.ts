/**
 * The built renderer (dist/renderer) as files over HTTP. Only files inside that folder are
 * served, by real path, so `..`, encoded separators and symlinks cannot reach anything else.
 * index.html is never cached (it names the current assets); assets are revalidated by ETag,
 * since their names carry no content hash. Bodies are kept in memory while the file's size and
 * time stay the same: a page load asks for a dozen files at once, and reading each again costs
 * four round trips through libuv's thread pool, which on a busy machine is most of the answer's
 * time.
 */
import { promises as fs } from 'node:fs';
import { extname, resolve, sep } from 'node:path';

/** The types of the renderer's built files, for this host and the desktop app's app:// protocol. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  // Module scripts run only when served with a JavaScript MIME type.
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export type Asset = { kind: 'file'; path: string; contentType: string; size: number; mtimeMs: number; etag: string; isIndex: boolean } | { kind: 'refused'; status: 400 | 404 };

/** The renderer is about a megabyte in a few dozen files; bigger ones are read each time. */
const CACHED_FILE_LIMIT_BYTES = 4 * 1024 * 1024;
const CACHED_FILES = 200;
const bodies = new Map<string, { size: number; mtimeMs: number; body: Buffer }>();

async function readBody(asset: Extract<Asset, { kind: 'file' }>): Promise<Buffer> {
  const kept = bodies.get(asset.path);
  if (kept && kept.size === asset.size && kept.mtimeMs === asset.mtimeMs) return kept.body;
  const body = await fs.readFile(asset.path);
  if (body.length <= CACHED_FILE_LIMIT_BYTES) {
    bodies.delete(asset.path);
    // A rebuild leaves the old chunk names behind; the oldest entry goes first.
    if (bodies.size >= CACHED_FILES) bodies.delete(bodies.keys().next().value!);
    bodies.set(asset.path, { size: asset.size, mtimeMs: asset.mtimeMs, body });
  }
  return body;
}

/** Maps a URL path to a file inside `root`, or says why not. */
export async function resolveAsset(root: string, pathname: string): Promise<Asset> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return { kind: 'refused', status: 400 };
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  let realRoot: string;
  let realPath: string;
  try {
    realRoot = await fs.realpath(root);
    realPath = await fs.realpath(resolve(realRoot, relative));
  } catch {
    return { kind: 'refused', status: 404 };
  }
  if (!realPath.startsWith(realRoot + sep)) return { kind: 'refused', status: 404 };
  const stats = await fs.stat(realPath).catch(() => undefined);
  if (!stats?.isFile()) return { kind: 'refused', status: 404 };
  return {
    kind: 'file',
    path: realPath,
    contentType: CONTENT_TYPES[extname(realPath).toLowerCase()] ?? 'application/octet-stream',
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    etag: `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`,
    isIndex: realPath === resolve(realRoot, 'index.html'),
  };
}

/** Status, headers and body for a resolved file, honouring If-None-Match. */
export async function assetResponse(
  asset: Extract<Asset, { kind: 'file' }>,
  ifNoneMatch: string | undefined,
): Promise<{ status: 200 | 304; headers: Record<string, string>; body: Buffer | undefined }> {
  if (asset.isIndex) {
    const body = await readBody(asset);
    return { status: 200, headers: { 'content-type': asset.contentType, 'content-length': String(body.length), 'cache-control': 'no-store' }, body };
  }
  const headers = { 'content-type': asset.contentType, 'cache-control': 'no-cache', etag: asset.etag };
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === asset.etag)) return { status: 304, headers, body: undefined };
  const body = await readBody(asset);
  return { status: 200, headers: { ...headers, 'content-length': String(body.length) }, body };
}
