/**
 * Which links may leave the app for the person's browser: only well-formed https URLs. Anything
 * else (file:, javascript:, custom schemes that launch other programs, http) is refused, since
 * `shell.openExternal` hands the URL to the OS, which would happily run a registered handler.
 */

/** The normalised https URL to open, or null when the link must not be opened. */
export function externalHttpsUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 8192) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname === '') return null;
  // Credentials in a link are a phishing trick (https://bank.com@evil.example/), never needed here.
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
