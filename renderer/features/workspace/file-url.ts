/**
 * Paths from a drop: `text/uri-list` carries `file://` URLs (one per line, `#` lines are
 * comments). A URL is percent-decoded into a path of the platform main runs on: POSIX keeps
 * the slashes, Windows gets a drive letter or a UNC share and backslashes.
 */

export type PathStyle = 'posix' | 'windows';

export function pathStyleOf(platform: string): PathStyle {
  return platform === 'win32' ? 'windows' : 'posix';
}

/** The path of a file:// URL, or an error message naming what was wrong with it. */
export function fileUrlToPath(url: string, style: PathStyle): { path: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { error: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== 'file:') return { error: `"${url}" is not a local file (only file:// URLs can be opened as folders)` };
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return { error: `"${url}" has a malformed %-escape` };
  }
  if (pathname.includes('\0')) return { error: `"${url}" contains a NUL character` };
  const host = parsed.hostname;
  if (style === 'posix') {
    if (host !== '' && host !== 'localhost') return { error: `"${url}" is on another machine (${host})` };
    return { path: pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname };
  }
  if (host !== '' && host !== 'localhost') return { path: `\\\\${host}${pathname.replace(/\//g, '\\')}`.replace(/\\+$/, '') };
  const drive = /^\/([A-Za-z]:)(\/.*)?$/.exec(pathname);
  if (!drive) return { error: `"${url}" has no drive letter` };
  const rest = (drive[2] ?? '\\').replace(/\//g, '\\');
  return { path: `${drive[1]!.toUpperCase()}${rest.length > 1 ? rest.replace(/\\+$/, '') : rest}` };
}

/** Every file:// URL of a uri-list, decoded; other lines become errors. */
export function parseUriList(text: string, style: PathStyle): { paths: string[]; errors: string[] } {
  const paths: string[] = [];
  const errors: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const result = fileUrlToPath(line, style);
    if ('path' in result) paths.push(result.path);
    else errors.push(result.error);
  }
  return { paths, errors };
}
