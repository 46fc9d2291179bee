/**
 * Cove's rules that know a secret by its context rather than its shape: a URL's password, a value
 * assigned to a secret's name (`password=…`, `"api_key": "…"`, `<add key=… value=…/>`), a name
 * and a value with no assignment between, an element named for a secret, a bare `key`, command
 * lines' flags and arguments. The shapes are in patterns.ts, which lists these after them.
 */
import { shannonEntropy } from './gitleaks-rules';
import { fillerKey } from './prefixed-token';
import { hasLetterAndDigit } from './rule-model';
import {
  assignedName,
  assignedSecret,
  basicCredentials,
  KEY_ENTROPY,
  MENTION_ENTROPY,
  namesPassword,
  NOT_A_SECRET_NAME,
  ownName,
  passwordValue,
  PLACEHOLDER,
  placeholderPassword,
  randomHex,
  URL_PLACEHOLDER,
} from './value-checks';
import { passwordUnderSecretName } from './token-shapes';
import type { SecretPattern } from './patterns';

export const ASSIGNMENT_PATTERNS: readonly SecretPattern[] = [
  {
    // scheme://user:PASSWORD@host keeps the user and host, which say what the URL is for. The
    // password runs to the last `@` before the host, so one containing `@` is redacted whole.
    name: 'url-password',
    regex: /\b[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s:/@'"`]*):(?<secret>[^\s/'"`]+)@(?=[^\s@/'"`])/gi,
    hints: ['://'],
    // From the scheme just before `://`: one sticky try per URL instead of a scan of its lines.
    near: 'word',
    wordCharacters: /[A-Za-z0-9+.-]/,
    // A password the same as its user (`postgres:postgres@`) is a local default, not a secret.
    accept: (secret, match) => !PLACEHOLDER.test(secret) && !URL_PLACEHOLDER.test(secret) && secret !== match.groups?.user,
  },
  {
    // password=..., "api_key": "...", DB_TOKEN: ..., $token .= '...', creds ::= ..., key => ...,
    // <password>...</password>: the value must end where a value ends, mix letters and digits
    // and be random enough, which calls like getToken(), words and version strings are not.
    // Never inside a URL's authority (url-password knows where that secret ends) nor across a
    // line break (the next line is not the value).
    name: 'secret-assignment',
    regex:
      /(?<![A-Za-z0-9]|\/\/[^\s/]*)[A-Za-z0-9_.$@-]*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?|creds)\d{0,3}(?:[_.-][A-Za-z0-9]+)*(?:["']\]|["'\]])?[ \t]*(?:::=|:=|\?=|\.=|\+=|\|\|=|=>|<-|:|(?<compare>!==?|===?)(?=[ \t]*["'`])|=(?![=~])|>)[ \t]*(?:\[[ \t]*)?(?:\\?(?<quote>["'`])(?<secret>(?:(?!\k<quote>)`)?(?:[^\s"'`\\]|\\[^\s"'`\\]|\\\\){8,300})\\?\k<quote>|["'`]?(?<secret2>(?<=[A-Za-z0-9_]=)[^\s"'`]{8,300}(?=[ \t]*$)|[^\s"'`,;(){}[\]<>]{8,}(?=["'`\s,;<)\]]|\\[nr]|$)))/gim,
    hints: ['pass', 'pwd', 'secret', 'token', 'key', 'cred'],
    near: 'word',
    // The rest of the name (`_KEY_ID`, `.prod`), a closing quote or bracket, blanks; `.=` starts with a name character.
    // A quoted value is the whole of what is between the quotes (`"django-insecure-_du9e^(…"`),
    // escaped ones too (`\"…\"`: a config inside a JSON string, a log line of JSON); an
    // unquoted one right after `NAME=` that ends its line is all of it (.env's
    // `D7_TOKEN=u@D7GXt)t>8d(LtH^(lvZ<g=`; code puts blanks around `=`, `var token = next(1)`).
    // A secret compared with a literal (`if creds.Secret != "open-sesame"`) is one written into the code.
    operatorAfter: { between: /[A-Za-z0-9_.$@"'\] \t-]/, operators: /[:?+|=<>!]/, value: { gap: /[:=?.+|<>\- \t[`"'\\]/, value: /[^\s"'`]/, min: 8 } },
    // A password under a token's name is one too (`GENERIC_TOKEN=open-sesame`, `appSecret = "Prestigitariu$"`);
    // compared, only under a secret's name (`token === "arrow-function"` is a tokenizer's).
    // A value that spells its own name stands for one (`confirm_password2: confirm_password2`).
    accept: (secret, match) =>
      !NOT_A_SECRET_NAME.test(assignedName(match[0])) &&
      (match.groups?.compare === undefined || /secret["'\]]*[ \t]*[!=]/i.test(match[0])) &&
      !ownName(secret, assignedName(match[0])) &&
      (assignedSecret(secret) || passwordUnderSecretName(secret, match)),
  },
  {
    // A secret's name and its value with no assignment between, the way people and tools print
    // one: `twitch token - 'k0lj2mwl8n3z…'`, `sanity auth token |skCr…`, `Your API2CART key is
    // 2afd…`, `[DEBUG] Using token spu-3f10…`. Quoted, whatever a secret's name is given;
    // bare, only a long random draw (prose says "the key to", "a token of"); a blank pasted
    // before the closing quote is no part of it (`token - 'T5Lj…= '`). A hyphen stands
    // between blanks: `key-wrapping`, `token-counting-2024-11-01` are words.
    name: 'secret-mention',
    regex:
      /\b(?:password|passwd|secret|token|apikey|api_key|api-key|key)s?(?:[ \t]+(?:(?:[-|:\u2013]|is|was)[ \t]*)?|[ \t]*[|:][ \t]*)(?:\\?(?<quote>["'`])(?<secret>[^\s"'`\\]{8,300})[ \t]?\\?\k<quote>|(?<secret2>[A-Za-z0-9+/=_.~-]{16,300})(?![A-Za-z0-9+/=_.~-])(?![^\s"'`,;)\]]))/gi,
    // Every match begins with a hint, so it is tried once where each one starts (no group
    // around the names: a named one would hide that from startsAtKeyword).
    hints: ['pass', 'secret', 'token', 'apikey', 'api_key', 'api-key', 'key'],
    near: 'line',
    accept: (secret, match) =>
      match.groups?.secret2 === undefined
        ? assignedSecret(secret) || (namesPassword(match[0]) && passwordValue(secret))
        : assignedSecret(secret) && shannonEntropy(secret) >= MENTION_ENTROPY,
  },
  {
    // The name and the value in two fields of one entry: .NET's <add key="ApiToken" value="…"/>,
    // Kubernetes' and Actions' `- name: API_TOKEN` / `value: …`, JSON's {"name": …, "value": …}.
    name: 'secret-assignment',
    regex:
      /\b(?:key|name)["']?[ \t]*[=:][ \t]*["']?(?<name>[\w.$@-]*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?|creds)[\w.-]*)["']?[ \t]*[,;]?\s{0,40}?["']?value["']?[ \t]*[=:][ \t]*(?:(?<quote>["'])(?<secret>[^\s"'`]{8,300})\k<quote>|["']?(?<secret2>[^\s"'`,;(){}[\]<>]{8,}))/gi,
    hints: ['value'],
    near: 'line',
    operatorAfter: { between: /["'A-Za-z \t]/, operators: /[=:]/, value: { gap: /[ \t"']/, value: /[^\s"'`]/, min: 8 } },
    // A password's field is a password whatever its shape (`<add key="dbPassword" value="whiteduke" />`).
    accept: (secret, match) =>
      !NOT_A_SECRET_NAME.test(match.groups?.name ?? '') && (assignedSecret(secret) || (namesPassword(match.groups?.name ?? '') && passwordValue(secret, match.groups?.name))),
  },
  {
    // A value assigned to a password's own name is the password whatever its shape: people's
    // passwords are words (`open sesame`, `Prestigitariu$`), which the entropy floor above lets
    // through; `==` against a quoted literal is one written into the code. Quoted (any characters
    // but the quote, after four that may begin a value: not the ` + code + ` between two
    // strings), or unquoted to the end of the line (.env, .ini, properties) or to the next field
    // of a connection string or query (`;encrypt=false`, `&user=`); never a type, a
    // literal of the language, a placeholder, nor a template formatted on the spot
    // (`"prefix_{}".format(x)`, `"%s" % x`).
    name: 'password-assignment',
    regex:
      /(?<![A-Za-z0-9]|\/\/[^\s/;]*)(?<name>[A-Za-z0-9_.$@-]*(?:password|passwd|passphrase|pwd|pass))(?:["']\]|["'\]])?[ \t]*(?:::=|:=|\?=|\.=|\+=|=>|:|={2,3}(?=[ \t]*["'])|=(?![=~]))[ \t]*(?:(?<escape>\\?)(?<quote>["'])(?=`?[^\s"'`,;(){}[\]<>]{4})(?<secret>(?:(?!\k<quote>)[^\n\\]|\\[^\n"'\\]|\\\\){4,100})\k<escape>\k<quote>(?![ \t]*(?:\.format\(|%[ \t]*[(\w]))|(?<secret2>[^\s"'`,;(){}[\]<>]{4,100})(?:[ \t]*$|[ \t]+#.*$|(?=;[A-Za-z ]|&)|(?<=[A-Za-z0-9]=[^\s"'`,;(){}[\]<>]{4,100})(?=;$)))/gim,
    hints: ['pass', 'pwd'],
    near: 'word',
    operatorAfter: { between: /[A-Za-z0-9_.$@"'\] \t-]/, operators: /[:?=.+]/, value: { gap: /[:=?.+>\- \t"'\\`]/, value: /[^\s"'`,;(){}[\]<>]/, min: 4 } },
    // Under `pass` alone a value with blanks is a message (`"pass": "Fix this:"`), not a password.
    accept: (secret, match) => namesPassword(match.groups?.name ?? '') && passwordValue(secret, match.groups?.name) && (!/\s/.test(secret) || !/pass$/i.test(match.groups?.name ?? '')),
  },
  {
    // Jenkins' credentials.xml and its kin: an element named for a secret holds one
    // (`<secret>{name AQAAABAAA 5422358j60yx…}</secret>`, `<apiToken>…</apiToken>`), blanks and braces and all.
    name: 'secret-element',
    regex: /<(?<tag>[A-Za-z0-9_.:-]*(?:password|passwd|secret|token|api[_-]?key|apikey|credentials?))>(?<secret>[^<]{6,2000}?)<\/\k<tag>>/gi,
    hints: ['password>', 'passwd>', 'secret>', 'token>', 'key>', 'credential>', 'credentials>'],
    // Tried once, from the `<` that opens the tag: `Result<Secret>` in code is not tried at all.
    near: 'word',
    wordCharacters: /[A-Za-z0-9_.:<-]/,
    // An element named for a password holds one whatever its shape (`<genericPassword>super$ecret<…>`).
    accept: (secret, match) =>
      (namesPassword(match.groups?.tag ?? '') && passwordValue(secret.trim(), match.groups?.tag)) ||
      secret.split(/[\s{}]+/).some((word) => assignedSecret(word) || (word.length >= 8 && !PLACEHOLDER.test(word) && /\d/.test(word) && shannonEntropy(word) >= 2.5)),
  },
  {
    // Jenkins' encrypted secrets (`{AQAAABAAAAAQ…=}` in credentials.xml and job configs), in any
    // element: the braces hold a secret sealed with the instance's key, or (as scanners' tests
    // write them) the secret itself after the marker.
    name: 'jenkins-secret',
    regex: /\{(?<secret>AQAAABAAA[^{}<>\n]{8,4000})\}/g,
    hints: ['aqaaabaaa'],
  },
  {
    // Tableau's personal access tokens: the token's id (16 bytes of base64, `==`), `:` and 32
    // letters and digits (`Yq7Kx…Pw==:Rb3Vn…`); the id's padding before the colon is the hint.
    name: 'tableau-token',
    regex: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{22}==:[A-Za-z0-9]{32}(?![A-Za-z0-9+/=])/g,
    hints: ['==:'],
    accept: (secret) => hasLetterAndDigit(secret.slice(25)) && shannonEntropy(secret.slice(25)) >= 3.5,
  },
  {
    // Django's generated `SECRET_KEY`: `startproject` writes `django-insecure-` and 50 characters
    // of its alphabet (`(`, `^`, `$` and all), which an unquoted value's rules end too early.
    name: 'django-secret-key',
    regex: /(?<![A-Za-z0-9_-])django-insecure-[a-z0-9!@#$%^&*(\-_=+)]{30,}/g,
    hints: ['django-insecure-'],
  },
  {
    // New Relic license keys: 36 characters (hex, or a region's `eu01xx` and 30) and `NRAL`,
    // whatever name they stand under (`license: …`); filler of `x` or `0` is a placeholder.
    name: 'new-relic-license-key',
    regex: /(?<![A-Za-z0-9])[A-Za-z0-9]{36}NRAL(?![A-Za-z0-9])/g,
    hints: ['nral'],
    accept: (secret) => !/^[x0]+$/i.test(secret.slice(0, 36)),
  },
  {
    // A bare `key` (`Key = yb+Ygm82…`, `KEY=VmFYK7WG3CkgVmTl`, `license_key: 033f2f…`): common in
    // code for things that are not secrets (`primary_key`, `sort_key: created_at`), so the value
    // must be long and random, not just mixed. Laravel Sanctum's tokens put their id and `|` first
    // (`convier_key: "49|07KJ…"`).
    name: 'key-assignment',
    regex:
      /(?<![A-Za-z0-9]|\/\/[^\s/]*)(?:[A-Za-z0-9]+[_.-])*key(?:["']\]|["'\]])?[ \t]*(?:::=|:=|=>|:|=(?![=~]))[ \t]*["'`]?(?<secret>(?:\d{1,10}\|)?[A-Za-z0-9+/=_.%*~!#^&:-]{16,})(?=["'`\s,;<)\]]|\\[nr]|$)/gim,
    hints: ['key'],
    near: 'word',
    operatorAfter: { between: /[A-Za-z0-9_.$@"'\] \t-]/, operators: /[:=]/, value: { gap: /[:=>\- \t`"']/, value: /[A-Za-z0-9+/=_.%*~!#^&:|-]/, min: 16 } },
    // A public key is published on purpose (`DOTENV_PUBLIC_KEY=037cfb…`).
    accept: (secret, match) => assignedSecret(secret) && (shannonEntropy(secret) >= KEY_ENTROPY || randomHex(secret) || fillerKey(secret)) && !/public/i.test(match[0]),
  },
  {
    // curl -u / --user user:password (and wget, httpie). gitleaks has a rule, but its allowlist
    // excuses any password that merely starts with "x", "test" or "pwd".
    name: 'basic-auth-flag',
    regex: /(?<![\w-])(?:-u|--user|--http-user)(?:=|\s+)["']?(?<user>[^\s:"'$]+):(?<secret>[^\s"'`]{3,})/g,
    hints: ['-u', '--user', '--http-user'],
    near: 'line',
    accept: (secret, match) => !placeholderPassword(secret, match.groups?.user),
  },
  {
    // A password in a known argument position: the second string given to a credential's
    // constructor (.NET's `NetworkCredential("user", "pw")`, Java's `PasswordAuthentication`,
    // Python's `HTTPBasicAuth`), the third to .NET's `DirectoryEntry(path, user, pw)`.
    name: 'password-argument',
    regex:
      /\b(?:(?:Network|UsernamePassword)?Credentials?|PasswordAuthentication|HTTPBasicAuth|HttpBasicAuth|BasicAuth)\(\s*["'][^"'\n]{1,100}["']\s*,\s*["'](?<secret>[^"'\n]{4,100})["']|\bDirectoryEntry\(\s*["'][^"'\n]*["']\s*,\s*["'][^"'\n]*["']\s*,\s*["'](?<secret2>[^"'\n]{4,100})["']/g,
    hints: ['credential(', 'credentials(', 'authentication(', 'basicauth(', 'directoryentry('],
    near: 'lines',
    accept: (secret) => passwordValue(secret),
  },
  {
    // Passwords where a command or file puts them: PsExec's `-p`, .netrc's `login u password p`,
    // Vault's unseal keys (`vault operator unseal <key>`, `Unseal Key 1: <key>`).
    name: 'password-argument',
    regex: /\bpsexec(?:\.exe)?\b[^\n]*?\s-p[ \t]+(?<secret>[^\s"']{3,100})|\blogin[ \t]+\S+\s+password[ \t]+(?<secret2>\S{3,100})/gi,
    hints: ['psexec', 'login'],
    near: 'line',
    accept: (secret) => passwordValue(secret),
  },
  {
    name: 'vault-unseal-key',
    regex: /\bunseal(?:[ \t]+key(?:[ \t]+\d+)?[ \t]*:|[ \t]+)[ \t]*(?<secret>[A-Za-z0-9+/]{20,}={0,2})(?![A-Za-z0-9+/=])/gi,
    hints: ['unseal'],
    accept: (secret) => hasLetterAndDigit(secret),
  },
  {
    // HTTP Basic credentials: base64 of `user:password`, which is what the decoding checks (so
    // `Basic authentication` in prose is left).
    name: 'basic-auth-header',
    regex: /\bBasic[ \t]+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi,
    hints: ['basic'],
    accept: basicCredentials,
  },
  {
    // Command-line flags: --password hunter2x9, --token=..., -p'...' for mysql and friends.
    name: 'secret-flag',
    // A flag whose name ends in a secret's word is one too (`--vault-token`, `-vaultToken`, `--db-password`).
    regex: /(?<![\w-])--?[A-Za-z0-9-]{0,30}?(?:password|passwd|pass|pwd|secret|token|api-key|apikey|access-key|auth-token|client-secret)(?:=|\s+)["']?(?<secret>[^\s"'`;|&]{6,})/gi,
    hints: ['pass', 'pwd', 'secret', 'token', 'key'],
    // A flag begins its run of name characters: tried once from there.
    near: 'word',
    wordCharacters: /[\w-]/,
    accept: (secret) => !secret.startsWith('-') && hasLetterAndDigit(secret) && !PLACEHOLDER.test(secret),
  },
];
