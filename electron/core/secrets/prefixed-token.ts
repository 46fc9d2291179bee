/**
 * The shapes behind the structural `prefixed-token` rule of patterns.ts, and the filler test
 * keys Cove's assignment rules accept: a provider's prefix before a long random body (or a
 * test key's filler), told apart from hashes, API object ids, names in code and the near misses
 * the rules that know a prefix keep as negatives. Kept apart from the pattern list, which reads
 * these as `accept` checks and `places` scans.
 */
import { hasLetterAndDigit, shannonEntropy } from './rule-model';

/** The characters docs and templates fill a placeholder with (`xxxx`, `0000`, `****`, `####`, `....`). */
const PLACEHOLDER_FILL = /[xX0*#.\-_ ]/;

/**
 * A test key with a filler body, under a secret's name (where a bare run of `x` is a
 * placeholder, and is left):
 * - a run of one letter or digit that docs do not fill with, with at most a few other characters
 *   around it (`aaaa…aaaa` for an AWS key, `00aaaa…`, `aaaa…NRAL`, `aaaa…a-`), as the suites that
 *   test those providers write them;
 * - a provider's short prefix and then any filler (`AP6xxxxxxxxxx`, `AKCxxxxxxxxxx`,
 *   `npm_xxxxxxxxxxx`): the prefix says which provider's key it stands for.
 * What stays a placeholder: filler alone in the characters docs use (`xxxxxxxx`, `0000…`,
 * `000…0aa`, whose run is of `0`), and filler of two characters or more (`abababab`).
 */
export function fillerKey(secret: string): boolean {
  const compact = secret.replace(/[-_.]/g, '');
  const run = /(.)\1{11,}/.exec(compact);
  if (run && !PLACEHOLDER_FILL.test(run[1]!) && /^[A-Za-z0-9]$/.test(run[1]!) && compact.length - run[0].length <= 6) return true;
  const prefixed = /^([A-Za-z][A-Za-z0-9]{1,3}?[_-]?)(.)\2{7,}$/.exec(secret);
  // The prefix is a provider's: capitals, a digit or a separator in it (`AKC`, `AP6`, `npm_`), not the filler's own start (`xxxxxxxx`).
  return prefixed !== null && /[A-Z0-9_-]/.test(prefixed[1]!) && !prefixed[1]!.endsWith(prefixed[2]!) && /^(?:[A-Z]{2,4}|[A-Za-z]{1,3}\d|[a-z]{2,4}[_-]|[A-Z]{2,3}\d)$/.test(prefixed[1]!);
}

/**
 * Prefixes of things that are not secrets though a long random body follows them: hashes and
 * digests (`sha512-…` integrity, `sha256-…`), and the object ids of APIs a coding agent reads
 * (Anthropic's `msg_`/`toolu_`, OpenAI's `chatcmpl-`/`call_`/`file-`, Stripe's `cus_`/`pi_`/`evt_`),
 * which name a request or a record, not a credential; publishable keys (`pk_live_…`), public.
 */
const NOT_A_KEY_PREFIX =
  /^(?:sha\d*|md\d|blake\w*|crc\d*|xxh\w*|murmur\w*|fnv\w*|msg|toolu|srvtoolu|call|chatcmpl|cmpl|req|request|resp|evt|cus|pi|pm|ch|in|ii|sub|si|prod|price|acct|txn|tr|po|re|src|seti|run|asst|thread|step|file|batch|ft|ftjob|org|user|proj|data|aria|css|sc|chunk|id|uuid|guid|hash|commit|rev|build|trace|span|node|test|mock|fake|dummy|example|sample|tmp|temp|cache|diff|v\d+|pk)$/i;

/**
 * The prefixes the rules know (the keywords that end in `_`, `-` or `.`: `cfat_`, `hf_`, `ntn_`,
 * `sk_test_`), noted when a detector index is made (detectors.ts).
 */
const KNOWN_PREFIXES = new Set<string>();

export function noteKeyPrefixes(keywords: readonly string[]): void {
  for (const keyword of keywords) if (keyword.length >= 3 && /^[a-z0-9][a-z0-9_.-]*[_.-]$/.test(keyword)) KNOWN_PREFIXES.add(keyword.slice(0, -1).replace(/[-.]/g, '_'));
}

/**
 * A prefix a rule knows: `exact` (`cfat`, `shpss`, `tfp`), or `near`, glued to a word (`xcfat`,
 * `wordgsk`, `foosk_test`) or cut short (`cf` of `cfat`). A near one is that rule's to judge
 * (secretlint's suites keep them as negatives); an exact one with another shape than its rule's
 * is a key only when its body is long and random (knownPrefixKey).
 */
function knownPrefix(prefix: string): 'exact' | 'near' | undefined {
  const name = prefix.replace(/-/g, '_');
  if (KNOWN_PREFIXES.has(name)) return 'exact';
  for (const known of KNOWN_PREFIXES) {
    if (name.endsWith(known) && /^[a-z]+$/.test(name.slice(0, -known.length))) return 'near';
    if (known.length > name.length && known.startsWith(name) && /[a-z]/.test(known[name.length]!)) return 'near';
  }
  return undefined;
}

/** Whether `next` follows `previous` in a walk (`abcd`, `1234`, `aBcD`, `aAbB`): a typed fake, not a draw. */
const walks = (previous: number, next: number) => next === previous || next === previous + 1;

/**
 * A stretch of 20 characters as random as a draw: letters and digits, entropy 3.5 or more, and at
 * most 3 of its 19 steps walking the alphabet or repeating (case aside). A provider's test key
 * typed by hand (`aBcDeF…1234567890abcdef`, `FakeFakeFake…`) has none; a real key is one.
 */
function randomStretch(body: string): boolean {
  for (const run of body.split(/[_-]/)) {
    if (run.length < 20) continue;
    const lower = run.toLowerCase();
    for (let start = 0; start + 20 <= run.length; start++) {
      let steps = 0;
      for (let index = start + 1; index < start + 20 && steps <= 3; index++) if (walks(lower.charCodeAt(index - 1), lower.charCodeAt(index))) steps++;
      if (steps > 3) continue;
      const window = run.slice(start, start + 20);
      if (hasLetterAndDigit(window) && shannonEntropy(window) >= 3.5) return true;
    }
  }
  return false;
}

/** Words a test key says it is one with (`ops_DUMMYWFpbCI6…`, secretlint's negative). */
const FAKE_WORD = /fake|dummy|example|sample|placeholder|redacted|changeme/i;

/**
 * A prefix a rule knows before a body that rule does not take (`shpss_` and mixed case where
 * Shopify's rule wants hex; Fly.io's `fm2_…`, Mailgun's `key-…`): a key of another shape than the
 * rule's (a newer format, a longer one) when the body is 24 characters or more and holds a random
 * stretch, or is a test key's filler (`API-1111…`). What stays: secretlint's near misses, typed
 * fakes (`sk_aBcDeFgH…1234567890abcdef…`, `ntn_1234567890aBcD…`, `hf_FakeFake…`).
 */
function knownPrefixKey(body: string): boolean {
  const compact = body.replace(/[_-]/g, '');
  if (compact.length < 24 || FAKE_WORD.test(compact)) return false;
  if (/^(.)\1+$/.test(compact)) return !PLACEHOLDER_FILL.test(compact[0]!);
  return randomStretch(body);
}

/**
 * A key behind its number (TrueNAS' API keys, `12-` and 64 letters and digits): the number says
 * nothing of a provider, so the body must be long (32 or more, in one run) and drawn: both cases,
 * digits, entropy 4.5 or more, not typed as a walk (randomStretch). A hash in hex has one case.
 */
function numberedKey(body: string): boolean {
  if (!/^[A-Za-z0-9]{32,}$/.test(body) || !/[a-z]/.test(body) || !/[A-Z]/.test(body) || !/\d/.test(body)) return false;
  return shannonEntropy(body) >= 4.5 && randomStretch(body);
}

const ALPHANUMERIC = Uint8Array.from({ length: 128 }, (_, code) => (/[A-Za-z0-9]/.test(String.fromCharCode(code)) ? 1 : 0));

/**
 * Where a `_` or `-` is followed by 20 letters or digits that do not run on into base64 (`+`,
 * `/`, `=`: an integrity string's `sha512-…`): where prefixed-token can match.
 */
export function separatorsBeforeBodies(text: string): number[] {
  const places: number[] = [];
  const length = text.length;
  for (const separator of ['_', '-']) {
    const from = places.length;
    for (let at = text.indexOf(separator); at !== -1 && at + 21 <= length; at = text.indexOf(separator, at + 1)) {
      // The 20th character first: most separators (dates, UUIDs, names) fail there or soon after.
      const last = text.charCodeAt(at + 20);
      if (last >= 128 || ALPHANUMERIC[last] === 0) continue;
      let index = at + 1;
      for (; index < length; index++) {
        const code = text.charCodeAt(index);
        if (code >= 128 || ALPHANUMERIC[code] === 0) break;
      }
      if (index < at + 21) {
        at = index - 1;
        continue;
      }
      const next = text.charCodeAt(index);
      if (next !== 43 && next !== 47 && next !== 61) places.push(at);
      at = index - 1;
    }
    if (from > 0 && places.length > from) places.sort((x, y) => x - y);
  }
  return places;
}

/**
 * A short prefix, `_` or `-`, and a long random body, at a token's start (`tvly-…`, `rootly_…`,
 * `lsv2_pt_…`, `glsa_…`, `spu-1111…`): the way providers mark their keys, which neither rule set
 * knows for every provider. The body has letters and digits and is random enough, or mixed case
 * as chance mixes it, or a test key's filler; a hash's or an API object's prefix is left.
 */
export function prefixedToken(_secret: string, match: RegExpExecArray): boolean {
  const { prefix = '', sub, body: raw = '' } = match.groups ?? {};
  if (/^\d+$/.test(prefix)) return numberedKey(raw);
  if (NOT_A_KEY_PREFIX.test(prefix)) return false;
  const known = knownPrefix(prefix.toLowerCase()) ?? (sub === undefined ? undefined : knownPrefix(`${prefix}_${sub}`.toLowerCase()));
  if (known === 'near') return false;
  if (known === 'exact') return knownPrefixKey(raw);
  const body = raw.replace(/[_-]/g, '');
  if (/^(.)\1+$/.test(body)) return !PLACEHOLDER_FILL.test(body[0]!);
  // A time-ordered id (a ULID, Anthropic's `wrkspc_01…`, `sesn_01…`) begins `01`; a random key rarely does.
  if (body.startsWith('01')) return false;
  // Letters alone only in mixed case (`hc_characterdatadeletedata…` is a name in code).
  const upper = body.replace(/[^A-Z]/g, '').length / body.length;
  // Digits only at the end are a name's number (`hc_entitiesremovenameditem1`).
  return (hasLetterAndDigit(body.replace(/\d+$/, '')) && shannonEntropy(body) >= 3) || (/^[A-Za-z]+$/.test(body) && upper >= 0.25 && upper <= 0.75);
}
