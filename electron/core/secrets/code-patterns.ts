/**
 * Secrets written into code and configuration in shapes the `name = value` rules of patterns.ts
 * do not see (Skyscanner/whispers' fixtures hold each): a name numbered after its word
 * (`static_password01`), several names given several values in one statement (Go's
 * `a, b := "…", "…"`), a lookup's default (`os.getenv("PASSWORD", "…")`), a name and its value in
 * two fields over lines (`<key>db.password</key>` / `<value>…</value>`), a list under a
 * password's name, and Dockerfile's `ENV NAME value` or `docker run -e NAME=value`.
 *
 * Values are judged as patterns.ts judges them (value-checks.ts): a password's name takes any
 * value but a type, a literal, a reference, a placeholder or its own name, here with no blank in
 * it (a list's or a field's value with blanks is a message); another secret's name only a value
 * random enough to be a credential.
 */
import type { SecretPattern } from './patterns';
import { fillerKey } from './prefixed-token';
import { hasLetterAndDigit, shannonEntropy } from './rule-model';
import { CODE_NAME, entropyFloor, IS_PATH, IS_URL, KEY_ENTROPY, namesPassword, ownName, passwordValue as anyPasswordValue, PLACEHOLDER, randomLetters } from './value-checks';

/** A password's value in code and configuration: as anywhere, and with no blank. */
const passwordValue = (secret: string, name: string) => anyPasswordValue(secret, name) && !/\s/.test(secret);

/** Another secret's name: its value must look like a credential. */
const SECRET_NAME = /secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credential|creds/i;

/** Another secret: random enough (an entropy floor that a short value can reach), or a test key's filler; not a name, path or URL. */
function secretValue(secret: string, name: string): boolean {
  if (PLACEHOLDER.test(secret) || IS_URL.test(secret) || IS_PATH.test(secret) || ownName(secret, name)) return false;
  if (fillerKey(secret)) return true;
  if (CODE_NAME.test(secret) && !randomLetters(secret)) return false;
  return (hasLetterAndDigit(secret) || randomLetters(secret)) && shannonEntropy(secret) >= entropyFloor(secret);
}

/**
 * Words as code writes them (`asn1js.OctetString`, `get-yargs-completions`, `IssuerAndSerialNumber`):
 * capitals only where a word begins, a digit or two at most; a draw has capitals anywhere
 * (`YXNkZmZm…`) or many digits.
 */
const codeWords = (value: string) => value.split(/[-_.$:/]+/).every((part) => part === '' || (/^(?:[A-Z]?[a-z]+\d*[a-z]*)+$/.test(part) && (part.match(/\d/g)?.length ?? 0) <= 2));

/** A value under a name that ends in `key`: long and random (not words of code), or a test key's filler; never a public key. */
const keyValue = (secret: string, name: string) => !/public/i.test(name) && secretValue(secret, name) && (fillerKey(secret) || (shannonEntropy(secret) >= KEY_ENTROPY && !codeWords(secret)));

/** The value judged by what its name says it is. */
const valueFor = (name: string, secret: string) => (namesPassword(name) ? passwordValue(secret, name) : SECRET_NAME.test(name) && secretValue(secret, name));

/** The name a match's groups hold (rules with several forms name them `name`, `name2`…). */
const nameOf = (match: RegExpExecArray) => match.groups?.name ?? match.groups?.name2 ?? match.groups?.name3 ?? '';

/** Several names given several values in one statement, for the value at the name's place. */
function severalAssigned(): RegExp {
  const name = String.raw`[A-Za-z_$][\w$]*`;
  const comma = String.raw`[ \t]*,[ \t]*`;
  const value = String.raw`(?:"[^"\n]*"|'[^'\n]*')`;
  // A statement's start (a line's, after `;` or `{`) and Go's, JavaScript's or Lua's keyword.
  const start = String.raw`(?:^|[;{])[ \t]*(?:(?:const|var|let|local|final)[ \t]+)?`;
  // The names after this one, Go's type (`string`), the operator.
  const rest = (more: string) => String.raw`[\w$]+(?:${comma}${name})${more}(?:[ \t]+[A-Za-z_][\w.]*)?[ \t]*:?=[ \t]*`;
  // This name is the j-th: j names before it, and j values are skipped before its own (j up to 3).
  const places = [0, 1, 2, 3].map((j) => String.raw`(?<=${start}(?:${name}${comma}){${j}})${rest(j === 0 ? '+' : '*')}(?:${value}${comma}){${j}}`);
  return new RegExp(String.raw`(?=(?:${places.join('|')})["'](?<secret>[^"'\n]{1,100})["'])(?<name>[\w$]+)`, 'gmd');
}

/** Where `Key` follows a lower-case letter or a digit, or `KEY` a capital or a digit (`slackKey`, `GITHUBKEY`), in increasing order. */
function gluedKeys(text: string): number[] {
  const places: number[] = [];
  for (const [word, before] of [
    ['Key', /[a-z0-9]/],
    ['KEY', /[A-Z0-9]/],
  ] as const) {
    for (let at = text.indexOf(word, 1); at !== -1; at = text.indexOf(word, at + 3)) if (before.test(text[at - 1]!)) places.push(at);
  }
  return places.sort((a, b) => a - b);
}

/**
 * The words a name that says credential ends in (a header's, a key's, a getter's): `X-Api-Key`,
 * `Beamer-Api-Key`, `X-Auth-Token`, `Authorization`, `api_key`, `getBetterStackToken`.
 * `key` alone names anything (`("key", "value")`), so only a credential's key.
 */
const CREDENTIAL_WORDS = ['token', 'secret', 'password', 'passwd', 'passphrase', 'pwd', 'authorization', 'credential', 'credentials', 'key'];
const CREDENTIAL_END = String.raw`(?:token|secret|password|passwd|passphrase|pwd|authorization|credentials?|(?:api|access|secret|private|auth|client|app|license|master|signing|encryption)[_-]?key)`;

/** Each word with what must follow it, as a hint: the rules wake only where a name ends so. */
const endingIn = (...after: string[]) => CREDENTIAL_WORDS.flatMap((word) => after.map((next) => word + next));

export const CODE_PATTERNS: readonly SecretPattern[] = [
  {
    // A password's or secret's name numbered after its word (`static_password01 = "…"`,
    // `DB_PASSWORD_2=…`, `$password1 = '…'`, `String pwd2 = "…";`): the other rules want the name
    // to end in the word or go on after a separator.
    name: 'password-assignment',
    regex:
      /(?<![A-Za-z0-9]|\/\/[^\s/;]*)(?<name>[A-Za-z0-9_.$@-]*(?:password|passwd|passphrase|pwd|pass|secret|token)[_-]?\d{1,3})(?:["']\]|["'\]])?[ \t]*(?:::=|:=|\?=|\.=|=>|:|=(?![=~]))[ \t]*(?:(?<quote>["'`])(?<secret>[^\n"'`\\]{4,100})\k<quote>|(?<secret2>[^\s"'`,;(){}[\]<>]{4,100})(?=[ \t]*$|[ \t]+#))/gim,
    // Passwords' words only: `token` and `secret` are on most lines of some output, and a
    // random token under `token2` is gitleaks' generic rule's.
    hints: ['pass', 'pwd'],
    near: 'word',
    operatorAfter: { between: /[A-Za-z0-9_.$@"'\] \t-]/, operators: /[:?=.]/, value: { gap: /[:=?.>\- \t"'`]/, value: /[^\s"'`,;(){}[\]<>]/, min: 4 } },
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
  {
    // Several names, several values (`const a_password, b_password string = "…", "…"`, Go's
    // `p1, p2 := "…", "…"`, Python's `user, password = "admin", "…"`): the value in the name's
    // place. The match is the name alone (the value is found ahead of it), so the next name of
    // the statement is tried too.
    name: 'password-assignment',
    regex: severalAssigned(),
    hints: ['pass', 'pwd', 'secret', 'token'],
    near: 'word',
    wordCharacters: /[\w$]/,
    operatorAfter: { between: /[\w$, \t]/, operators: /[:=]/, value: { gap: /[:= \t]/, value: /["']/, min: 1 } },
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
  {
    // A lookup's default under a secret's name: `os.getenv("PASSWORD", "…")`,
    // `os.environ.get("pwd", "…")`, Ruby's `ENV.fetch("SECRET_KEY", "…")`, Java's
    // `getOrDefault("DB_PASSWORD", "…")`, PHP's `define("DB_PASSWORD", "…")`, and
    // `process.env.DB_PASSWORD || "…"` (or `??`).
    name: 'secret-default',
    regex:
      /(?:getenv|environ\.get|environ\.setdefault|env\.fetch|getordefault|define)\(\s*["'](?<name>[\w.-]{1,80})["']\s*,\s*(?:default\s*=\s*)?(?<quote>["'])(?<secret>[^"'\n\\]{1,100})\k<quote>|process\.env(?:\.(?<name2>\w{1,80})|\[["'](?<name3>\w{1,80})["']\])\s*(?:\|\||\?\?)\s*(?<quote2>["'`])(?<secret2>[^"'`\n\\]{1,100})\k<quote2>/gi,
    hints: ['getenv(', 'environ.get(', 'environ.setdefault(', 'env.fetch(', 'getordefault(', 'define(', 'process.env'],
    near: 'line',
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
  {
    // A name and its value in two elements over lines (Java's and Hadoop's properties, plists):
    // `<key>db.password</key>` / `<value>…</value>`, `<name>…Password</name>` / `<value>…</value>`.
    name: 'secret-assignment',
    regex: /<(?<tag>key|name)>[ \t]*(?<name>[^<>\n]{1,100}?)[ \t]*<\/\k<tag>>\s{0,200}?<value>[ \t]*(?<secret>[^<>\n]{1,200}?)[ \t]*<\/value>/gi,
    hints: ['<value>'],
    near: 'line',
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
  {
    // The same in YAML and JSON for a name that says `pass` alone (`- key: PASS` /
    // `value: …`, `{"key": "DB_PASS", "value": "…"}`): patterns.ts' rule knows the longer names.
    name: 'secret-assignment',
    regex:
      /(?<=\b(?:key|name)["']?[ \t]*[=:][ \t]*["']?)(?<name>[\w.$@-]*(?:pass|PASS|Pass)(?![a-z])[\w.$@-]*)["']?[ \t]*[,;]?\s{0,40}?["']?value["']?[ \t]*[=:][ \t]*(?:(?<quote>["'])(?<secret>[^\n"'`]{1,100})\k<quote>|(?<secret2>[^\s"'`,;(){}[\]<>]{1,100})(?=[ \t]*$|[ \t]*[,}]))/gm,
    hints: ['pass'],
    near: 'word',
    operatorAfter: { between: /[\w.$@-]/, operators: /["'\s,;]/ },
    accept: (secret, match) => namesPassword(nameOf(match)) && passwordValue(secret, nameOf(match)),
  },
  {
    // Lists under a password's name: YAML's `passwords:` / `- "…"`, JSON's `"passwords": ["…", "…"]`
    // (over lines too). The match is one value; what comes before it is looked at behind it.
    name: 'password-assignment',
    regex:
      /(?<=(?<name>[\w.$@-]*(?:passwords|passwds|pwds))["']?[ \t]*:[ \t]*\n(?:[ \t]*-[ \t]*[^\n]*\n){0,20}[ \t]*-[ \t]+(?<quote>["']?))[^\s"'#[\]{}][^"'\n]{0,99}?(?=\k<quote>[ \t]*$)|(?<=(?<name2>[\w.$@-]*(?:passwords|passwds|pwds))["']?[ \t]*[:=][ \t]*\[(?:\s*(?:"[^"\n]*"|'[^'\n]*')\s*,)*\s*["'])[^"'\n]{1,100}(?=["'])/gim,
    hints: ['passwords', 'passwds', 'pwds'],
    near: 'lines',
    accept: (secret, match) => passwordValue(secret, nameOf(match)),
  },
  {
    // An element named for passwords, in the plural (`<db_passwords>…</db_passwords>` inside a list of them).
    name: 'secret-element',
    regex: /<(?<tag>[A-Za-z0-9_.:-]*(?:passwords|passwds))>(?<secret>[^<\n]{1,200})<\/\k<tag>>/gi,
    hints: ['passwords>', 'passwds>'],
    near: 'word',
    wordCharacters: /[A-Za-z0-9_.:<-]/,
    accept: (secret, match) => passwordValue(secret.trim(), match.groups?.tag ?? ''),
  },
  {
    // A literal compared with a password's name, the literal first (`if "…" == password:`,
    // `"{}".format("…") != PASSWORD`): the match is the name, the literal is looked at behind it.
    name: 'password-assignment',
    regex: /(?<=["'](?<secret>[^"'\n\\]{1,100})["']\)?[ \t]*[!=]==?[ \t]*)(?<name>[A-Za-z0-9_.$]*(?:password|passwd|pwd|pass)\w*)/gi,
    hints: ['pass', 'pwd'],
    near: 'word',
    accept: (secret, match) => namesPassword(nameOf(match)) && passwordValue(secret, nameOf(match)),
  },
  {
    // A credential's name and its value as two literals of one call, array or tuple:
    // `req.Header.Set("X-Api-Key", "…")`, `headers.put("X-Auth-Token", "…")`,
    // `["api_key", "…"]`, `{"token", "…"}`, `("password", "…")`. The name is the first
    // literal after `(`, `[`, `{` or `,`; the value, the literal right after it and the last one
    // (a list of names goes on: `assert(params, "password", "salt", …)`), judged by what the
    // name says (a sentence, a word, a path or a placeholder is no secret).
    name: 'secret-argument',
    regex: new RegExp(
      String.raw`(?<=[([{,][ \t]*(?<open>["']))(?<name>[A-Za-z0-9_.-]*?${CREDENTIAL_END})\k<open>[ \t]*,[ \t]*(?<quote>["'])(?<secret>[^"'\n\\]{8,300})\k<quote>(?=[ \t]*[)\]}])`,
      'gi',
    ),
    // Woken where a credential's word closes a literal (`key"`, `token'`), not at each `key`.
    hints: endingIn('"', "'"),
    near: 'word',
    wordCharacters: /[A-Za-z0-9_.-]/,
    operatorAfter: { between: /[A-Za-z0-9_.-]/, operators: /["']/, value: { gap: /[ \t,"']/, value: /[^"'\n\\]/, min: 8, reach: 6 } },
    // A password's name in a list of names is followed by another name (`"password", "salt")`,
    // `"new-password", "current-password"`): there the value needs a digit or a symbol.
    accept: (secret, match) => valueFor(nameOf(match).replace(/authorization/i, 'token'), secret) && !/^[A-Za-z]+(?:[-_][A-Za-z]+)*$/.test(secret),
  },
  {
    // A literal returned by a function named for a credential: Go's
    // `func getServiceToken() string { return "…" }`, Java's `String getApiKey() { return "…"; }`,
    // Python's `def api_token(): return "…"` (on the next line too), Kotlin's
    // `fun apiKey(): String = "…"`, TypeScript's `getToken(): string { return "…" }`, C#'s
    // `string ApiKey() => "…"`. A getter that computes or looks its value up is left.
    name: 'secret-return',
    regex: new RegExp(
      String.raw`(?<name>[A-Za-z0-9_]*?${CREDENTIAL_END})\([^()\n]{0,60}\)[ \t]*(?:(?::|->)?[ \t]*[\w.<>[\]|?*, \t]{1,40}?)?[ \t]*(?:[{:][ \t]*\n?[ \t]*return[ \t]+|=>?[ \t]*)(?<quote>["'\x60])(?<secret>[^"'\x60\n\\]{8,300})\k<quote>(?![ \t]*[+.[%])`,
      'gi',
    ),
    // Woken where a credential's word is called or defined (`token(`, `key(`): a definition writes
    // nothing between the name and `(`.
    hints: endingIn('('),
    near: 'word',
    wordCharacters: /[A-Za-z0-9_]/,
    operatorAfter: { between: /[A-Za-z0-9_]/, operators: /\(/ },
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
  {
    // A literal given alone to a function named for a credential: a setter's or a builder's
    // (`sgMail.setApiKey("…")`, `client.withToken("…")`, `hashPassword("…")`). A lookup by a
    // name (`getSecret("DB_PASSWORD")`, `vault.readSecret("app/prod")`) passes a name or a path,
    // which no credential's value is; nor is an address (`resetPassword("ann@example.com")`).
    name: 'secret-argument',
    regex: new RegExp(String.raw`(?<name>[A-Za-z0-9_]*?${CREDENTIAL_END})\([ \t]*(?<quote>["'\x60])(?<secret>[^"'\x60\n\\]{8,300})\k<quote>[ \t]*\)`, 'gi'),
    hints: endingIn('('),
    near: 'word',
    wordCharacters: /[A-Za-z0-9_]/,
    operatorAfter: { between: /[A-Za-z0-9_]/, operators: /\(/, value: { gap: /[ \t(]/, value: /["'`]/, min: 1, reach: 4 } },
    accept: (secret, match) => valueFor(nameOf(match), secret) && !/^[A-Za-z]+(?:[-_][A-Za-z]+)*$/.test(secret) && !/^[\w.+-]+@[\w-]+\.[\w.]+$/.test(secret),
  },
  {
    // Python requests' `auth=("user", "password")`: the password is the tuple's second literal.
    name: 'password-argument',
    regex: /\bauth[ \t]*=[ \t]*\([ \t]*(?<q>["'])[^"'\n]{1,100}\k<q>[ \t]*,[ \t]*(?<quote>["'])(?<secret>[^"'\n]{4,100})\k<quote>[ \t]*\)/g,
    hints: ['auth=(', 'auth =('],
    accept: (secret) => passwordValue(secret, ''),
  },
  {
    // An API's client made with one literal, its key: `new HubSpotAPI("…")`,
    // `WeatherClient('…')`, `PaymentsSdk("…")`. The literal must be random enough to be a key
    // (16 characters or more, letters and digits): an address, a region, a project's name
    // (`new S3Client("us-east-1")`, `ApiClient("https://…")`) is what other clients are given.
    name: 'secret-argument',
    regex: /(?<![\w$.])(?<name>[A-Z][A-Za-z0-9]*(?:API|Api|Client|SDK|Sdk))\([ \t]*(?<quote>["'])(?<secret>[^"'\s\\]{16,200})\k<quote>[ \t]*\)/g,
    hints: ['api(', 'client(', 'sdk('],
    near: 'word',
    wordCharacters: /[A-Za-z0-9_]/,
    // An Ethereum address (`0x…`, public) is what a chain's client is given.
    accept: (secret) => secretValue(secret, '') && hasLetterAndDigit(secret) && !/^0x[0-9a-f]+$/i.test(secret),
  },
  {
    // curl's `--proxy-user user:password` (`-u`/`--user` are patterns.ts' basic-auth-flag's).
    name: 'basic-auth-flag',
    regex: /(?<![\w-])--proxy-user(?:=|\s+)["']?[^\s:"'$]+:(?<secret>[^\s"'`]{3,})/g,
    hints: ['--proxy-user'],
    accept: (secret) => passwordValue(secret, ''),
  },
  {
    // A name glued to `key` (`slackKey`, `secretKey`, `GITHUBKEY`), where patterns.ts' rules want a
    // separator before it (`api_key`, `license-key`): a value as long and random as theirs.
    name: 'key-assignment',
    regex:
      /(?<![A-Za-z0-9]|\/\/[^\s/]*)(?<name>[A-Za-z0-9_.-]*(?:[a-z0-9]Key|[A-Z0-9]KEY))(?:["']\]|["'\]])?[ \t]*(?:::=|:=|=>|:|=(?![=~]))[ \t]*(?:(?<quote>["'`])(?<secret>[^\s"'`\\]{16,300})\k<quote>|(?<secret2>[A-Za-z0-9+/=_.%*~!#^&:-]{16,300})(?=["'`\s,;<)\]]|\\[nr]|$))/gm,
    // Tried from its own places, `Key` after a lower-case letter or digit and `KEY` after a capital
    // or digit: `key` itself is on most lines of some output, and patterns.ts' rule tries each.
    near: 'word',
    places: gluedKeys,
    operatorAfter: { between: /[A-Za-z0-9_.$@"'\] \t-]/, operators: /[:=]/, value: { gap: /[:=>\- \t`"']/, value: /[^\s"'`]/, min: 16 } },
    accept: (secret, match) => keyValue(secret, nameOf(match)),
  },
  {
    // An element named for a key (`<GITLAB_KEY>…</GITLAB_KEY>`, `<license_key>`, `<slackKey>`): the
    // same value as under a key's name.
    name: 'key-assignment',
    regex: /<(?<tag>[A-Za-z0-9_.:-]*(?:key|Key|KEY))>[ \t]*(?<secret>[^<\s]{16,300})[ \t]*<\/\k<tag>>/g,
    hints: ['key>'],
    near: 'word',
    wordCharacters: /[A-Za-z0-9_.:<-]/,
    accept: (secret, match) => keyValue(secret, match.groups?.tag ?? ''),
  },
  {
    // A password's flag and a value of letters as mixed as a draw (`--tlspassword YXNkZm…`):
    // patterns.ts' secret-flag wants letters and digits.
    name: 'secret-flag',
    regex: /(?<![\w-])--?(?<name>[A-Za-z0-9-]{0,30}?(?:password|passwd|pass|pwd))(?:=|\s+)["']?(?<secret>[A-Za-z_-]{10,})(?![^\s"'`;|&])/gi,
    hints: ['pass', 'pwd'],
    near: 'word',
    wordCharacters: /[\w-]/,
    accept: (secret, match) => namesPassword(nameOf(match)) && randomLetters(secret) && !PLACEHOLDER.test(secret),
  },
  {
    // Maven's master password in settings-security.xml: `<master>{…}</master>`, the braces (the
    // closing one may be escaped, `\}`) around base64 of the encrypted password.
    name: 'secret-element',
    regex: /<master>[ \t]*\{(?<secret>[A-Za-z0-9+/]{16,}={0,2})\\?\}[ \t]*<\/master>/g,
    hints: ['<master>'],
    accept: (secret) => hasLetterAndDigit(secret),
  },
  {
    // Dockerfile's `ENV NAME value` (and `ARG`), with a blank or `=`, and `docker run -e NAME=value`
    // (only with `=`: `grep -e pass README` is no assignment): the value ends at a blank, which
    // the `name = value` rules take for the rest of a command. Woken by the instruction or the
    // flag, rare in output, not by the secret's word (`token` is on most lines of some).
    name: 'secret-assignment',
    regex:
      /^[ \t]*(?:ENV|ARG)[ \t]+(?<name>[A-Za-z_][\w.-]*)[ \t]+(?<quote>["']?)(?<secret>[^\s"'=\\]{4,200})\k<quote>(?=\s|\\|$)|(?<![^\s;])(?:ENV|ARG|-e|--env)[ \t=]+(?<name2>[A-Za-z_][\w.-]*)=(?<quote2>["']?)(?<secret2>[^\s"'=\\]{4,200})\k<quote2>(?=\s|\\|$)/gm,
    hints: ['env ', 'env\t', 'arg ', 'arg\t', '-e ', '--env'],
    near: 'line',
    accept: (secret, match) => valueFor(nameOf(match), secret),
  },
];
