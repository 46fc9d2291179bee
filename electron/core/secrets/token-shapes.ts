/**
 * Checks for credentials recognised by their structure rather than by a name or a prefix alone
 * (patterns.ts reads them as `accept` checks): Atlassian Data Center's tokens, which are base64
 * of an id and random bytes; Azure DevOps' older 52-character tokens, base32.
 */
import { decodeBase64, hasLetterAndDigit, shannonEntropy } from './rule-model';
import { assignedName, codeIdentifier } from './value-checks';

/**
 * Atlassian Data Center's personal access tokens (Bitbucket's behind `BBDC-`, Confluence's and
 * Jira's bare): base64 of a number (the token's id), `:` and random bytes
 * (`MTk4…` is `198…:` and then bytes no text holds). Decoding says so: base64 of prose, of a
 * hash or of an image does not begin with digits and a colon.
 */
export function atlassianDataCenterToken(secret: string): boolean {
  const decoded = decodeBase64(secret);
  if (decoded === undefined) return false;
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

/**
 * Words a value under a secret's name is made of when it names a thing rather than being the
 * secret (`x-token`, `refresh-token`, `my-secret`, `mock-token`, `aria-hidden`): the secret's own
 * words, docs' placeholders and the words of headers, grants and markup.
 */
const NAMING_WORD =
  /^(?:token|tokens|secret|secrets|key|keys|password|passwd|pass|auth|oauth|bearer|basic|header|id|ids|my|your|mock|test|testing|example|fake|dummy|sample|placeholder|changeme|change|replace|insert|here|x|api|access|refresh|client|type|value|name|default|none|null|undefined|aria|data|ietf|grant|session|csrf|xsrf|jwt|cookie|github|npm|env)$/;

/**
 * A password written under a token's or a secret's name (`GENERIC_TOKEN=open-sesame`,
 * `appSecret = "Prestigitariu$"`), which the entropy floor lets through as it does under a
 * password's name: words joined by hyphens none of which names a thing (`x-token`,
 * `refresh-token`, `my-secret` are names and placeholders), or letters with a password's symbol
 * (`$`, `!`, `#`…) and no dot, slash or blank (not a path, an address, a regex, an operator).
 * The name must end in the secret's word (`token_type`, `secret.kind` name something else).
 */
export function passwordUnderSecretName(secret: string, match: RegExpExecArray): boolean {
  if (!/(?:token|secret)$/i.test(assignedName(match[0]))) return false;
  if (/^[a-z]{2,}(?:-[a-z]{2,}){1,3}$/.test(secret)) return !secret.split('-').some((word) => NAMING_WORD.test(word));
  // Not a bundler's renamed name (`QuestionDotToken$2`).
  return /^[A-Za-z][A-Za-z0-9]*[!#$%^&*~?][A-Za-z0-9!#$%^&*~?]*$/.test(secret) && (secret.match(/[A-Za-z]/g)?.length ?? 0) >= 5 && !codeIdentifier(secret);
}

/**
 * A JOSE compact token (a JWS or a JWE): its header is base64url of a JSON object with an `alg`,
 * and the parts after it carry 32 characters or more, one of them 16 or more (a signature, a
 * ciphertext), not a file name's `.json`.
 */
export function joseToken(secret: string): boolean {
  const [header = '', ...rest] = secret.split('.');
  if (rest.join('').length < 32 || !rest.some((part) => part.length >= 16)) return false;
  const decoded = decodeBase64(header.replace(/-/g, '+').replace(/_/g, '/'));
  if (decoded === undefined) return false;
  try {
    const parsed: unknown = JSON.parse(decoded);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}
