/**
 * A provider's word and then its value bare, with no assignment operator or a light one, as a
 * line of its own: `jira Z7Vo…`, `onesignal: e8b1…-…`, `cloudmersive: "sxk5…"`, `mailgun 'gRtZ…'
 * pass '55c3…'`, `<id>{anypoint id 17c5…}</id>`. People paste keys that way into notes and chats,
 * and other scanners' suites (trufflehog's detector tests above all) write them so; no secret word
 * stands before the value (the assignment rules of patterns.ts want one).
 *
 * Woken by the names of the providers the vendored rule sets know (provider-names.ts), which the
 * keyword scan finds with the rest: a line that begins with such a name (`onesignal`,
 * `cloudconvert_key`, `postmarkToken`) and a value. What tells such a line from real output is
 * still the value: a random draw (digits amid letters, or both cases mixed as chance mixes them,
 * and an entropy floor), not a word, a name in code, a number, a version, a path or URL, a digest
 * (`sha512-…`, `h1:…`); hex digits and UUIDs, which are every hash and id, count after the
 * provider's name too (the name says what they are).
 *
 * The same rule under any word (`mixpanel M0UX…`, `luno '1XyD…'`, `webexbot = "ajlk…"`: providers
 * no rule set names) needed a look at every line, which cost a sixth of redaction's time on the
 * benchmark's output and a quarter on code, and was dropped for that (the README says more).
 */
import { PROVIDER_NAMES } from './provider-names';
import { hasLetterAndDigit, shannonEntropy } from './rule-model';
import type { SecretPattern } from './patterns';
import { assignedSecret } from './value-checks';

const PROVIDERS = new Set(PROVIDER_NAMES);

/** What may follow a provider's name in the word (`postmark_token`, `onesignalKey`, `cloudconvert_key`). */
const CREDENTIAL_TAIL = /^(?:api)?(?:key|token|secret|pat|auth|apikey|accesskey|accesstoken|secretkey|credentials?)?\d?$/;

/** Whether `word` names a provider the rule sets know, alone or with a credential's word after it. */
export function namesProvider(word: string): boolean {
  const lower = word.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (PROVIDERS.has(lower)) return true;
  for (let end = 4; end < lower.length; end++) if (PROVIDERS.has(lower.slice(0, end)) && CREDENTIAL_TAIL.test(lower.slice(end))) return true;
  return false;
}

/**
 * Words that say the value after them is a digest, a signature, an id or a version, whatever it
 * looks like: `integrity sha512-…`, `sha256sum: …`, `ETag: "…"`, `"node_id": "MDQ6…"`, `commit …`.
 */
const NOT_A_CREDENTIAL_WORD =
  /hash|sum$|digest|integrity|checksum|etag|^sha\d*|md5|crc|fingerprint|thumbprint|^x5t|^kid$|cursor|public|pubkey|signature|^sig$|nonce|salt|^iv$|commit|revision|^rev$|^ref$|version|uuid|guid|^ident|^(?:tree|parent|object|blob|merge|index|from|head|base|data|src|href|url|path|file|name|type|mime|image|digest)$/i;

/** An id's name (`node_id`, `sheetId`, `CLIENT_ID`, `uid`; not `plaid`, `android`): ids name a record, they open nothing. */
const ID_WORD = /(?:^|[_.-])(?:id|ids|Id|Ids|ID|IDs)$|[a-z0-9](?:Id|Ids|ID|IDs)$|^[uopg]id$/;

/** A language's own words, which begin lines of code (`interface HTMLTimeElement`, `var prevTaskInDEV`), not a provider's. */
const CODE_WORD =
  /^(?:var|let|const|return|if|else|elif|elsif|throw|throws|new|typeof|instanceof|readonly|interface|type|class|extends|implements|function|func|def|import|export|from|case|await|yield|package|public|private|protected|internal|static|void|delete|in|of|and|or|not|is|as|with|for|foreach|while|do|echo|print|printf|set|get|enum|struct|union|declare|namespace|module|abstract|override|final|async|default|goto|break|continue|switch|try|catch|finally|raise|assert|lambda|pass|local|global|nonlocal|require|include|use|using|unset|fn|impl|trait|mut|pub|where|match|select|defer|go|chan|map|range|super|this|self|call|then|fi|done|esac|alias|unalias|source|export|typedef|template|typename|operator|sizeof|extern|val|object|when|fun|lateinit|inline|infix|data|sealed|open|inner|companion|init|constructor|get|let)$/;

/** Hex digits alone, or a UUID's groups of them. */
const HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;

/** A digest or an encoding's tag before the value (`sha512-…`, `sha256:…`, `h1:…`, `data:…`, `base64,…`). */
const TAGGED = /^(?:sha\d*|md5|h1|blake\w*|xxh\w*|data|base64|urn|arn|git|file|blob)[-:,+.]/i;

/** A digest inside a package manager's pin (`pnpm@8.15.1+sha256.245f…`). */
const TAG_INSIDE = /[@+.:](?:sha\d+|md5)[-.:]/i;

/**
 * A walk of 8 characters or more through the alphabet or the digits, case aside (`ABCDEFGHIJKL`,
 * `mnopQRStuvw`, `12345678`): a fake typed for a test, as scanners' suites keep among their
 * negatives (noseyparker's `okta: 00QCjAl4MlV-WPXM-ABCDEFGHIJKL-…`), never a draw.
 */
function walk(value: string): boolean {
  const lower = value.toLowerCase();
  let run = 1;
  for (let index = 1; index < lower.length; index++) {
    run = lower.charCodeAt(index) === lower.charCodeAt(index - 1) + 1 ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

/** A file's name (`bundle-a8Xk2Q9z.js`, `index-B3xK9qZ2.css`): a build's hash in it, no key. */
const FILE_NAME =
  /\.(?:[cm]?[jt]sx?|css|s[ac]ss|map|json|html?|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|otf|gz|zip|tgz|tar|wasm|txt|md|py|rb|go|rs|java|class|jar|so|dll|dylib|exe|whl|lock|ya?ml|xml|log|pdf|bin|node)$/i;

/** A version or a date (`1.2.3-beta.4`, `2024-01-02T10:00:00Z`), many digits between few letters. */
const VERSION_OR_DATE = /^v?\d+(?:[.-]\d+)+|^\d{4}-\d\d-\d\d/i;

/** Digits between letters (`H1E`, `k6u`, `x1e0v`): a draw scatters them, a name puts them at a word's end (`SRGB8_`, `es2015_`). */
const DIGITS_AMID_LETTERS = /(?<=[A-Za-z])[0-9]+(?=[A-Za-z])/g;

/** Runs of one case that read as a name's words: `Element`, `get`, `HTML`. */
const NAME_WORD = /[A-Z][a-z]{2,}|[a-z]{3,}|[A-Z]{3,}/g;

/**
 * A draw of letters and digits as random as a key, which names in code are not: the value rules'
 * test (value-checks' assignedSecret: not a placeholder, name in code, URL or path), mostly letters
 * and digits, 3 bits a character or more, and then either digits amid letters three times or more
 * (`H1EC2BUPZ22S`, `nvropikx1e0v…`, where a name has them at a word's end, `Int8Array`,
 * `COMPRESSED_SRGB8_ALPHA8_…`); or, with less than 60% of its letters in runs that read as a
 * name's words (not `getElementsByTagName`, `DOMHighResTimeStamp`, `utf8ToBase64Url`), digits amid
 * letters twice (`11XQ98FVS8WI`) or both cases mixed as a draw mixes them, about as many capitals
 * as small letters (`LAwdpRpHOnYE0Wyc`).
 */
function drawn(value: string): boolean {
  // The shape first (cheap, and most strings in code fail it), then what else it must not be.
  const body = value.replace(/[^A-Za-z0-9]/g, '');
  if (body.length < 12 || body.length < value.length * 0.6) return false;
  const letters = body.replace(/[0-9]/g, '');
  // Mostly digits is a number or a timestamp's run, not a draw.
  if (body.length - letters.length > letters.length * 2) return false;
  const amid = value.match(DIGITS_AMID_LETTERS)?.length ?? 0;
  if (amid < 3) {
    const wordy = value.match(NAME_WORD)?.reduce((sum, word) => sum + word.length, 0) ?? 0;
    if (wordy >= letters.length * 0.6) return false;
    if (amid < 2) {
      const upper = letters.replace(/[a-z]/g, '').length / letters.length;
      if (letters.length < 10 || upper < 0.25 || upper > 0.75) return false;
    }
  }
  return (
    shannonEntropy(value) >= 3 &&
    !TAGGED.test(value) &&
    !TAG_INSIDE.test(value) &&
    !FILE_NAME.test(value) &&
    !/^(?:\.{0,2}|~)\//.test(value) &&
    !VERSION_OR_DATE.test(value) &&
    !/^0x/i.test(value) &&
    !/\/\/|\\[xuU]/.test(value) &&
    !walk(value) &&
    assignedSecret(value)
  );
}

/**
 * Whether the value after `word` on such a line is a credential: a random draw, or hex digits or
 * a UUID (20 hex digits or more) under a provider's name, this word's or the line's first (`lead`:
 * `mailgun '…' pass '55c3…-5eeb…'`).
 */
export function bareValue(value: string, word: string, lead = word): boolean {
  if (NOT_A_CREDENTIAL_WORD.test(word) || ID_WORD.test(word)) return false;
  // A language's word begins a line of code; later on a line it is only a word (`pass '…'`).
  if (word === lead && CODE_WORD.test(word)) return false;
  // A word with digits amid letters of both cases is a draw itself, not a name (`ABCDDq2AGxGlqG 4rib…`).
  if (/[A-Za-z][0-9]+[A-Za-z]/.test(word) && /[a-z]/.test(word) && /[A-Z]/.test(word)) return false;
  // Words around hex digits are a hash's label (`NODE_SEA_FUSE_fce680…`, `main.3f2a9c1b.js`, `rsa4096/3F2A…`).
  const parts = value.split(/[._/:-]/).filter((part) => part !== '' && !/^[A-Za-z]+\d*$/.test(part));
  const compact = parts.join('');
  if (parts.length > 0 && parts.every((part) => HEX.test(part)))
    return compact.length >= 20 && hasLetterAndDigit(compact) && shannonEntropy(compact) >= 3 && (namesProvider(word) || namesProvider(lead));
  return drawn(value);
}

/** A second word that says what the value is (`anypoint id …`, `sirv token - '…'`). */
const WHAT = 'id|key|token|secret|password|pass|pwd|apikey|api_key|api-key|user|username|email|sid|pat|license|account';
const WORD = '[A-Za-z][A-Za-z0-9_]{1,39}';
const SEPARATOR = String.raw`(?:[ \t]*(?::=|[:=|])[ \t]*|[ \t]+-[ \t]+|[ \t]+)`;
/** Quoted, anything but a blank and its own quote; bare, the characters of base64 and of keys' separators. */
const VALUE = String.raw`(?:(?<quote>["'\x60])(?<secret>(?:(?!\k<quote>)\S){12,300})\k<quote>|(?<secret2>[A-Za-z0-9+/=_.~-]{12,300}))(?=[\s,;)}\]]|$)`;

/**
 * A line that begins with a word (quoted or not, up to 40 letters, digits and `_`; maybe a second
 * word that says what follows, `id`, `token`), then blanks, `:`, `=`, `:=`, `|` or ` - `, then a
 * value of 12 characters or more (quoted, or up to a blank): its first pair. Also the same pair in
 * braces as an element's content (`<id>{bitfinex bdiO…}</id>`, Jenkins' credentials as scanners'
 * tests write them). A quoted value may hold any character but a blank and its own quote
 * (`'Ivus86]AJDk:…#`>vek1…'`).
 */
export const BARE_VALUE_REGEX = new RegExp(String.raw`(?<=(?:^[ \t]*|>\{)(?<wq>["']?))(?<word>${WORD})\k<wq>(?:[ \t]+(?:${WHAT}))?${SEPARATOR}${VALUE}`, 'gm');

/**
 * A later value on such a line (the first after up to four more items), maybe with a word of its
 * own (`mailgun 'gRtZ…' pass '55c3…-…'`): the line's first word is `lead` and its first value
 * `first`, which must be a credential too (acceptLaterValue) for the line to be one of those.
 */
export const LATER_VALUE_REGEX = new RegExp(
  String.raw`(?<=^[ \t]*["']?)(?<lead>${WORD})["']?(?:[ \t]+(?:${WHAT}))?${SEPARATOR}(?<first>["'\x60]\S{12,300}|[A-Za-z0-9+/=_.~-]{12,300})(?:[ \t]+\S+){0,4}?[ \t]+(?:(?<word>${WORD})(?:[ \t]+(?:${WHAT}))?${SEPARATOR})?${VALUE}`,
  'gm',
);

function acceptLaterValue(secret: string, match: RegExpExecArray): boolean {
  const { lead = '', first = '', word } = match.groups ?? {};
  const firstValue = first.replace(/^["'`]/, '').replace(/["'`]?,?$/, '');
  return bareValue(firstValue, lead) && bareValue(secret, word ?? lead, lead);
}

export const BARE_VALUE_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'bare-value',
    regex: BARE_VALUE_REGEX,
    // Tried once at each provider's name the keyword scan finds, from the start of its word: the
    // regex wants that word to begin its line, so a name in the middle of one costs a failed try.
    hints: PROVIDER_NAMES,
    near: 'word',
    wordCharacters: /[A-Za-z0-9_]/,
    accept: (secret, match) => namesProvider(match.groups?.word ?? '') && bareValue(secret, match.groups?.word ?? ''),
  },
  {
    name: 'bare-value',
    regex: LATER_VALUE_REGEX,
    hints: PROVIDER_NAMES,
    near: 'word',
    wordCharacters: /[A-Za-z0-9_]/,
    accept: (secret, match) => namesProvider(match.groups?.lead ?? '') && acceptLaterValue(secret, match),
  },
];
