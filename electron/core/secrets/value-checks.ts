/**
 * How Cove's own rules judge the value they found (patterns.ts, code-patterns.ts): a credential
 * or a password rather than a word, a call, a path, a type, a placeholder or a reference. One
 * module, so that every rule that takes a password's or a secret's value judges it alike.
 */
import { fillerKey } from './prefixed-token';
import { decodeBase64, hasLetterAndDigit, shannonEntropy } from './rule-model';

/** Bits per character below which an assigned "secret" is a word or a counter, not a credential. */
export const ASSIGNMENT_ENTROPY = 2.8;

/** A short value cannot reach that floor however random (8 distinct characters give 3 bits): three quarters of a bit below its most. */
export const entropyFloor = (value: string) => Math.min(ASSIGNMENT_ENTROPY, Math.log2(value.length) - 0.75);

/**
 * Letters alone can be a generated secret too (`ZHBejQShHJLVNWxcqyaGVfyC`): long, and either
 * upper and lower case mixed the way chance mixes them (an identifier has a capital per word),
 * or lower case as varied as a random draw.
 */
export function randomLetters(text: string): boolean {
  // Separators do not make a draw less random (`PSIYbVgfkbEPQoqJfzHpACTtihONkQ_cKmOpNDPNiCU`).
  const value = text.replace(/[_-]/g, '');
  if (!/^[A-Za-z]{10,}$/.test(value) || codeIdentifier(text)) return false;
  const upper = value.replace(/[^A-Z]/g, '').length / value.length;
  if (upper >= 0.25 && upper <= 0.75) return true;
  // Lower case joined by separators in short parts is words (`x-csrf-token`, a header's name).
  return upper === 0 && shannonEntropy(value) >= 3.3 && !/^[a-z]{1,10}(?:[_-][a-z]{1,10})+$/.test(text);
}

/**
 * A name in code made of words (`isJSXToken`, `EndOfFileToken`, `CSSParserValue`, `Uint8Array`,
 * `ArrowToken$1`, a bundle's renamed `index$2_EcPrivateKey`, `use-credentials`,
 * `asn1js.OctetString`): each part a capitalised or lower-case
 * word holding a vowel (a lone one of twelve letters at most), an acronym of five capitals at most,
 * or a number of two digits after two words. A random
 * draw breaks that within a few characters: a capital alone between others, or a run of
 * lower-case letters with no vowel (`ZHBejQShHJ…`: `Sh`; `M0UXRQ2DBF5rEJ…`: `r`).
 */
export function codeIdentifier(value: string): boolean {
  // A bundler's rename (`$1`) and a module's short name before a dot (`asn1js.OctetString`) are parts of names.
  // A `$` elsewhere (`Harbour$Light`) is a password's symbol.
  const name = value.replace(/\$\d+$/, '').replace(/\$\d+_?/g, '_');
  if (name.length < 6 || !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(name)) return false;
  const segments = name.split('.');
  if (segments.length > 4 || !segments.slice(0, -1).every((segment) => /^[a-z][a-z0-9]{0,11}$/.test(segment) || identifierPart(segment))) return false;
  return segments
    .at(-1)!
    .split(/[-_]+/)
    .filter((part) => part !== '')
    .every(identifierPart);
}

function identifierPart(part: string): boolean {
  const words = part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  // One long lower-case run is a draw's as likely as a word's (randomLetters' entropy judges
  // it), and one word and a number is how people make passwords (`hardcoded1`, `summer2024`).
  const letterWords = words.filter((word) => !/\d/.test(word)).length;
  if (words.join('') !== part || (words.length === 1 && part.length > 12) || (letterWords < 2 && letterWords < words.length)) return false;
  return words.every((word) =>
    /\d/.test(word)
      ? word.length <= 2
      : /[a-z]/.test(word)
        ? word.length >= 2 && /[aeiouy]/i.test(word)
        : word.length <= 5 && (word.length >= 2 || words.length === 1 || /^[AI]$/.test(word)),
  );
}

/**
 * A provider's prefix and a long body (`pgar_aaaa…`, `hvb.bbbb…`, `BBDC-1111…`, `sk-AAAA…`): a
 * test key, or one of a provider Cove has no rule for. Assigned to a secret's name it is a key
 * whatever its body, as the suites that test those providers hold; a bare run of one character
 * (`0000…`, `xxxx…`) is a placeholder.
 */
export function prefixedKey(secret: string): boolean {
  // The body may come in groups (`tskey-future-KKKKKKKKKKKK-LLLL…`).
  const groups = /^[A-Za-z][A-Za-z0-9]{1,7}[_.-](?:[A-Za-z0-9]{2,8}[_.-])?([A-Za-z0-9]{8,}(?:-[A-Za-z0-9]{8,})*)$/.exec(secret)?.[1]?.split('-');
  const body = groups?.join('') ?? '';
  // A test key's filler (runs of one character), or random; not a word in code (`exports.isNotOpeningParenToken`).
  return body.length >= 16 && (groups!.every((group) => /^(.)\1*$/.test(group)) || hasLetterAndDigit(body) || randomLetters(body));
}

/**
 * A path (`/v1/oauth/token`, `/en/enterprise-server@3.0/auth`) or a relative one
 * (`./token.json`), which names where a secret is: segments in lower case or short, where a
 * base64 secret that starts with `/` has long mixed-case ones.
 */
export const IS_PATH = /^\.{0,2}\/(?:(?:[a-z0-9@.:_~%+-]+|[\w.@:~%+-]{1,12})(?:\/|$))*$/;

/** What follows a name that closes its own string (`passwordLabel:"Password:","Remember me:"`). */
export const CLOSED_NAME = /^[,;:)\]}]/;

/**
 * Names in code, not values: a dotted reference whose parts are words (`exports.isNotOpeningParenToken`,
 * `process.env.API_TOKEN`; a random segment such as `R5t` is not one), or words joined by
 * hyphens or underscores with a number at most (`progress-token-123`, `client_secret_basic`);
 * letters as mixed as a random draw are not names (randomLetters).
 */
export const CODE_NAME = /^(?:[A-Za-z_$][A-Za-z_$]*\d*(?:\.[A-Za-z_$][A-Za-z_$]*\d*)+|[A-Za-z]+(?:[-_][A-Za-z]+)+(?:[-_]\d+)?|[A-Za-z]+[-_]\d+)$/;

/**
 * A format string's field (`{}`, `{0}`, `%s`, `%d`; not URL encoding's `%d3`): the value is a
 * template filled in on the spot (`"prefix_{0}".format(x)`), not a secret.
 */
const TEMPLATE_FIELD = /\{\d{0,2}\}|%[sd](?![0-9A-Fa-f])/;

/** A value assigned to a secret's name that is a credential, not a word, call, path or placeholder. */
export const assignedSecret = (secret: string) =>
  !PLACEHOLDER.test(secret) &&
  !TEMPLATE_FIELD.test(secret) &&
  !CLOSED_NAME.test(secret) &&
  !((CODE_NAME.test(secret) || codeIdentifier(secret)) && !prefixedKey(secret) && !randomLetters(secret) && !fillerKey(secret)) &&
  !REGEX_SOURCE.test(secret) &&
  !/\/aws4_request$/.test(secret) &&
  !IS_URL.test(secret) &&
  !IS_PATH.test(secret) &&
  (((hasLetterAndDigit(secret) || randomLetters(secret)) && shannonEntropy(secret) >= entropyFloor(secret)) || prefixedKey(secret) || fillerKey(secret) || /^\d{16,}$/.test(secret));

// An AWS signature's credential scope (`Credential=AKIA…/20121226/us-east-1/sqs/aws4_request`) names a key id, a day and a service: it holds no secret.

/** A regular expression's source given to a secret's name (`TOKEN_CHARS = "[A-Za-z0-9._~+/-]+=*"`): a class and what repeats it. */
const REGEX_SOURCE = /^\^?\[[^\]]+\][+*?{]|\\[dsw][+*{]|\(\?[:=!<]/;

/** A URL assigned to a secret's name (`DB_CREDENTIALS = "postgres://…"`) is an address; url-password hides its password. */
export const IS_URL = /^[a-z][a-z0-9+.-]{1,20}:\/\//i;

/** What a password's name is given in code that is not a password: types, literals, words for none or for unset (a lookup's `"not-set"`). */
export const NOT_A_PASSWORD =
  /^(?:none|null|nil|true|false|undefined|string|str|int|number|bool|boolean|required|optional|secret|password|hidden|text|empty|redacted|default|unset|missing|todo|tbd|not[-_ ]?(?:set|configured|defined|provided)|\*+|x+|\.+|-+)$/i;

/**
 * Values a password's name is given in code that are not passwords: a dotted reference
 * (`env.TEST_PASSWORD`), a route or selector (`/forgot-password`, `#add-password`), an ARN, the
 * rest of a concatenation (`"+new Buffer(`), a CSS attribute selector (`"[type=password]"`), the
 * binary types a typed signature gives it (`password: Uint8Array`).
 */
export const PASSWORD_LOOK_ALIKE =
  /^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\([^)]*\))?|[#/+.].*|arn:.*|[a-z]+(?:[/_-][a-z]+)*\/[a-z/_#-]*|\[[\w-]+(?:[~|^$*]?=[^\]]*)?\]|(?:Uint8Array|Uint8ClampedArray|ArrayBuffer|Buffer|BufferSource|BinaryLike|KeyObject|CryptoKey)(?:\s*\|.*)?)$/;

/**
 * A value that spells its own name stands for one or labels it: the name or its end
 * (`DB_PASSWORD=DB_PASSWORD`, `password: PASSWORD`), or its last word and more letters
 * (axe-core's `{name:"PASS",value:"passed"}`).
 */
export function ownName(secret: string, name: string): boolean {
  if (name === '') return false;
  const lower = secret.toLowerCase();
  const word = /[a-z]+$/i.exec(name)?.[0].toLowerCase() ?? '';
  return name.toLowerCase().endsWith(lower) || (word.length >= 3 && lower.startsWith(word) && /^[a-z]+$/.test(lower));
}

/**
 * A value given to a password's name (when known, `name`) that is a password: anything but a
 * type, a literal of the language, a reference or placeholder, its own name, a route, filler
 * (`abababab`), shell quoting around a variable (`"'$DB_PASSWORD'"`), or a sentence (a message under `pass`, as in axe-core's locales).
 */
export const passwordValue = (secret: string, name = '') =>
  !PLACEHOLDER.test(secret) &&
  !TEMPLATE_FIELD.test(secret) &&
  !ownName(secret, name) &&
  !NOT_A_PASSWORD.test(secret.trim()) &&
  !PASSWORD_LOOK_ALIKE.test(secret) &&
  !IS_URL.test(secret) &&
  !/^(.{1,3})\1+$|\$[{(]|^['"]|\s\S+\s/.test(secret) &&
  !CLOSED_NAME.test(secret) &&
  // A sentence in a script written without blanks (axe-core's `"pass": "要素にはラベルがあります"`).
  !/(?:[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}].*){4}/u.test(secret);

/** Whether a `Basic` value decodes to `user:password` in printable characters. */
export function basicCredentials(secret: string): boolean {
  const decoded = decodeBase64(secret);
  if (decoded === undefined) return false;
  return /^[\x20-\x7e]+$/.test(decoded) && /^[^:]+:[^:]/.test(decoded);
}

/**
 * Whether a name that holds `pass` names a password: the word begins there (`pass`, `db_pass`,
 * `dbPass`, `DB_PASS`), not inside another (`minipass`, `bypass`, `compass`).
 */
export const namesPassword = (name: string) => /passw(?:or)?d|passphrase|pwd/i.test(name) || /(?:^|[^A-Za-z])(?:pass|Pass|PASS)(?![a-z])|[a-z](?:Pass|PASS)(?![a-z])/.test(name);

/** Bits per character a value printed bare after a secret's name must reach (32 hex digits give 3.4). */
export const MENTION_ENTROPY = 3.2;

/** Bits per character a bare `key`'s value must reach: a random draw, not a name or a path. */
export const KEY_ENTROPY = 3.5;

/**
 * A random draw of hex digits (32 to 64, an API key's usual length): 16 symbols cap its entropy at
 * 4 bits, and one in five random 32-digit keys falls under KEY_ENTROPY by chance (3.45 for
 * `57d2de35…`), while a typed or repeated one (`0123456789abcdef…`, `deadbeef…`) is far lower.
 */
export const randomHex = (secret: string) => /^[0-9a-f]{32,64}$/.test(secret) && hasLetterAndDigit(secret) && shannonEntropy(secret) >= 3.2;

/**
 * Placeholders and references in code and docs, which are not secrets themselves: a variable
 * (`$X`, `%X%`, `<X>`), a template's field (`{password}`, `{{ x }}`), CloudFormation's intrinsic
 * functions (`!Ref 'MasterUserPassword'`, `!Sub`), filler.
 */
export const PLACEHOLDER = /^(?:\$|%|<|\{|\[REDACTED|\*{3,}|x{6,}$|your[_-]|changeme$|example|!(?:Ref|Sub|GetAtt|ImportValue|Join|Select|FindInMap|If)\b)/i;

/**
 * What docs write in a password's place beside a user (curl's `-u user:pass`, `<user:password>`,
 * `neo4j:[PASSWORD]`, `username:token`, `xxx:yyy`, `test:test`), as in a URL's (URL_PLACEHOLDER).
 */
export function placeholderPassword(secret: string, user: string | undefined): boolean {
  const bare = secret.replace(/^[[<]|[\]>]$/g, '');
  return /^\[.*\]$|^<.*>$/.test(secret) || PLACEHOLDER.test(bare) || URL_PLACEHOLDER.test(bare) || /^(?:changeme|token|secret|api[_-]?key)$/i.test(bare) || secret === user;
}

/**
 * What docs and templates put in a URL's password (`user:password@`, `{PASS}`, `xxxx`,
 * `REPLACE_WITH_PASSWORD`): secretlint's and noseyparker's suites keep these as negatives.
 */
export const URL_PLACEHOLDER = /^(?:password|passwd|pass|pwd|mypassword|\{[^}]*\}|x+|\*+|replace[_-]?with[_a-z-]*|.{1,3}|(.)\1*)$/i;

/**
 * Names that hold no secret though a secret's word is in them: what the secret is called or where
 * it is (`LLM_SECRET_NAME`, `TOKEN_URL`, `dev.credentials.url`, `API_KEY_FILE`, `SECRET_LENGTH`,
 * Chromium's `--password-store=basic`), a form's or a policy's parts (`password_field`, `password_policy`),
 * and the tokens a web page prints for every visitor (`csrf-token`, `authenticity_token`) or
 * publishes (`publicToken`). From gitleaks' generic rule's allowlist, as names only: applied to
 * the whole line as gitleaks does, its `author` also excused `authorization_token`.
 */
export const NOT_A_SECRET_NAME =
  /(?:password|passwd|secret|token|api[_.-]?key|apikey|credentials?|creds)[_.-](?:names?|ur[il]s?|endpoints?|length|size|file|path|dir|store|manager|policy|field|label|prompt|hint|placeholder|strength)(?![A-Za-z0-9])|(?:csrf|xsrf|authenticity)[_.-]?token|public[_.-]?token/i;

/** The name an assignment's match begins with (`DB_PASSWORD`, `config.api_token`, `$secret`). */
export const assignedName = (match: string) => /^[A-Za-z0-9_.$@-]*/.exec(match)?.[0] ?? '';
