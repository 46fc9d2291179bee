/**
 * The renderer's origin: `app://cove/`, a privileged standard and secure scheme served only from
 * dist/renderer. Chosen over file:// because under file:// every file on the disk shares one
 * origin (so `'self'` in the CSP would cover them all) and no response headers can be set; a
 * scheme of our own gives the page a real origin, lets main refuse anything outside the build
 * and send the CSP as a header.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'cove';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * Whether a URL belongs to our origin. Compared by scheme and host, not `URL.origin`: the
 * WHATWG parser in Node gives non-special schemes the opaque origin "null".
 */
export function isAppUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.username === '' && url.password === '';
}
