/**
 * The access token of `cove serve` arrives in the page address (`/?token=…`). It is kept in
 * sessionStorage, so a reload still works, and removed from the address bar, so it is not left
 * in the history or in a screenshot.
 */
const STORAGE_KEY = 'cove.token';

export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage can be disabled; the token still works for this page's life.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** After the server refused the kept token: a reload then goes by the cookie (or the address) instead. */
export function forgetToken(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}

export function socketUrl(token: string | null): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${window.location.host}/api${query}`;
}
