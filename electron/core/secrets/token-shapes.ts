/**
 * Checks for credentials recognised by their structure rather than by a name or a prefix alone
 * (patterns.ts reads them as `accept` checks): Atlassian Data Center's tokens, which are base64
 * of an id and random bytes; Azure DevOps' older 52-character tokens, base32.
 */
import { hasLetterAndDigit, shannonEntropy } from './rule-model';

/**
 * Atlassian Data Center's personal access tokens (Bitbucket's behind `BBDC-`, Confluence's and
 * Jira's bare): base64 of a number (the token's id), `:` and random bytes
 * (`MTk4…` is `198…:` and then bytes no text holds). Decoding says so: base64 of prose, of a
 * hash or of an image does not begin with digits and a colon.
 */
export function atlassianDataCenterToken(secret: string): boolean {
  let decoded: string;
  try {
    decoded = atob(secret.length % 4 === 0 ? secret : secret + '='.repeat(4 - (secret.length % 4)));
  } catch {
    return false;
  }
  const id = /^\d{6,20}:/.exec(decoded);
  if (id === null) return false;
  const rest = decoded.slice(id[0].length);
  // Random bytes: most outside printable ASCII, or as varied as a draw.
  return rest.length >= 16 && (/[^\x20-\x7e]/.test(rest) || shannonEntropy(rest) >= 3.5);
}

/**
 * Azure DevOps' personal access tokens of the older shape: 52 characters of lower-case base32
 * (`a`–`z`, `2`–`7`), random. A Nix hash of that length uses another alphabet (`0`, `1`, `8`, `9`,
 * no `e`, `o`, `t`, `u`); a word run together (`abcdefghij…`) is not a draw.
 */
export const azureDevOpsLegacyToken = (secret: string): boolean => hasLetterAndDigit(secret) && shannonEntropy(secret) >= 4;

/**
 * LaunchDarkly's keys: `api-`, `sdk-` or `mob-` and a UUID's shape (8-4-4-4-12). Not filler
 * (`sdk-00000000-0000-…`, a placeholder), and letters and digits both, as a draw has them.
 */
export const launchDarklyKey = (secret: string): boolean => {
  const body = secret.slice(4).replace(/-/g, '');
  return hasLetterAndDigit(body) && !/^(.)\1*$/.test(body) && shannonEntropy(body) >= 3;
};
