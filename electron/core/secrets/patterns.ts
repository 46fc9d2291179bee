/**
 * Built-in patterns for credentials that have a recognizable shape. Each is written to miss
 * look-alikes that are not secret (git hashes, UUIDs, base64 of ordinary data, "sk-" in prose):
 * a provider prefix, a length, and for loose shapes a context such as `password=` and a value
 * that mixes letters and digits.
 *
 * Most shapes come from gitleaks' maintained rules (gitleaks-rules.ts); these are the ones it
 * lacks or holds too tightly for redaction (where a miss costs more than a false alarm).
 */
import { BARE_VALUE_PATTERNS } from './bare-values';
import { CODE_PATTERNS } from './code-patterns';
import { shannonEntropy } from './gitleaks-rules';
import { fillerKey, prefixedToken, separatorsBeforeBodies } from './prefixed-token';
import { PROVIDER_PATTERNS } from './provider-shapes';
import { hasLetterAndDigit } from './rule-model';
import type { ValueAfter } from './keyword-anchors';
import { SCANNER_PATTERNS } from './scanner-rules';
import {
  assignedSecret,
  basicCredentials,
  KEY_ENTROPY,
  MENTION_ENTROPY,
  nameOf,
  namesPassword,
  NOT_A_SECRET_NAME,
  ownName,
  passwordValue,
  PLACEHOLDER,
  placeholderPassword,
  randomHex,
  URL_PLACEHOLDER,
} from './value-checks';
import { atlassianDataCenterToken, joseToken, azureDevOpsLegacyToken, launchDarklyKey, passwordUnderSecretName } from './token-shapes';

export interface SecretPattern {
  /** Shown in the replacement: `[REDACTED:<name>]`. */
  name: string;
  /** Global. With a group named `secret`, only that group is replaced (the key or user stays). */
  regex: RegExp;
  /** Cheap precheck: the regex only runs on text containing one of these (lower case). */
  hints?: readonly string[];
  /** A last check of the secret part (and the match's other groups), for shapes a regex alone cannot tell. */
  accept?: (secret: string, match: RegExpExecArray) => boolean;
  /**
   * Where a match can be, which saves running the regex over all of a long output: `word`, it
   * starts in the run of name characters just before a hint (a `name=value` rule); `line`, on a
   * hint's line or the next; `lines`, within a few lines of a hint; `text`, anywhere. Default:
   * `line` for a pattern with hints, `text` without.
   */
  near?: 'word' | 'line' | 'lines' | 'text';
  /** For `word`: the characters a match may start with, walking back from its hint. */
  wordCharacters?: RegExp;
  /**
   * What may stand between a hint and the assignment operator, the operators' first characters
   * and the value after them; a hint followed by anything else is not tried (`getToken(`).
   */
  operatorAfter?: { between: RegExp; operators: RegExp; value?: ValueAfter };
  /**
   * For a pattern with no hints and `near: 'word'`: its own scan for where matches can be (in
   * increasing order), each tried once from the run of `wordCharacters` before it; for a shape
   * no keyword begins (prefixed-token's separator), cheaper than a regex over all of the text.
   */
  places?: (text: string) => number[];
}

/**
 * Provider shapes overlap with gitleaks' on purpose: its rules want a live key's exact length,
 * while test keys, truncated keys and older shapes are shorter and must be redacted all the same.
 */
const COVE_PATTERNS: readonly SecretPattern[] = [
  {
    // The whole block, including the escaped-newline form inside JSON (service-account files);
    // never past the next BEGIN, so a block cut short does not swallow the text up to another.
    name: 'private-key',
    regex: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:(?!-----BEGIN)[\s\S])*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g,
    hints: ['private key'],
    near: 'text',
    // A block with no key in it (`…KEY-----\nanything\n-----END…`, the two lines alone) is an example of the format.
    accept: (secret) => /[A-Za-z0-9+/=]{16}/.test(secret.replace(/-----[ A-Z0-9]+-----/g, '')),
  },
  {
    // A block cut short (head -n, a truncated log): everything key-like after the header.
    name: 'private-key',
    regex: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:(?:\s|\\[nr])*[A-Za-z0-9+/=]{16,})+/g,
    hints: ['private key'],
    near: 'text',
  },
  {
    name: 'aws-access-key-id',
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|AGPA)[A-Z0-9]{16}\b/g,
    hints: ['akia', 'asia', 'abia', 'acca', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'apka', 'agpa'],
  },
  {
    name: 'aws-secret-access-key',
    regex: /(?<![A-Za-z0-9])(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?\s*(?::|=>?)\s*["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    // Every match holds one of these, which a `secret` in prose or code does not.
    hints: ['aws_secret', 'awssecret', 'secret_access', 'secretaccess'],
  },
  {
    name: 'gcp-api-key',
    regex: /(?<![A-Za-z])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    hints: ['aiza'],
  },
  {
    name: 'gcp-private-key-id',
    regex: /"private_key_id"\s*:\s*"(?<secret>[0-9a-f]{40})"/g,
    hints: ['private_key_id'],
  },
  {
    name: 'azure-storage-key',
    regex: /(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{20,}={0,2})/g,
    hints: ['accountkey', 'sharedaccesskey'],
  },
  {
    name: 'azure-sas-signature',
    regex: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{20,}(?:={1,2}|%3D){0,2})/g,
    hints: ['sig='],
  },
  {
    name: 'anthropic-api-key',
    regex: /(?<![A-Za-z])sk-ant-[A-Za-z0-9_-]{20,}/g,
    hints: ['sk-ant-'],
  },
  {
    // Project, service-account and legacy keys; a digit is required so hyphenated prose is left alone.
    name: 'openai-api-key',
    // `sk-ant-` is Anthropic's, whose rule wants its longer body (`sk-ant-api02-notarealkey` is not a key).
    regex: /(?<![A-Za-z])sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    hints: ['sk-'],
  },
  {
    name: 'github-token',
    // GitHub App installation tokens of the newer shape are `ghs_<app id>_` and a JWT.
    regex: /(?<![A-Za-z])(?:ghp|gho|ghu|ghs|ghr)_(?:[A-Za-z0-9]{36,255}\b|\d{1,12}_eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]{8,}){1,2})/g,
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
  },
  {
    name: 'github-token',
    regex: /(?<![A-Za-z])github_pat_[A-Za-z0-9_]{22,255}\b/g,
    hints: ['github_pat_'],
  },
  {
    name: 'gitlab-token',
    regex: /(?<![A-Za-z])glpat-[A-Za-z0-9_-]{20,}/g,
    hints: ['glpat-'],
  },
  {
    name: 'slack-token',
    regex: /(?<![A-Za-z])xox[abposr]-(?:[A-Za-z0-9]+-)*[A-Za-z0-9]{8,}/g,
    hints: ['xox'],
    // Every Slack token holds its team's and user's numbers; `xoxo-indieweb` in a file name is a word.
    accept: (secret) => /\d/.test(secret.slice(5)),
  },
  {
    name: 'slack-token',
    regex: /(?<![A-Za-z])xapp-\d-[A-Za-z0-9-]{10,}/g,
    hints: ['xapp-'],
  },
  {
    name: 'slack-webhook',
    regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g,
    hints: ['hooks.slack.com'],
  },
  {
    // Providers with a prefix of their own and a long random body that gitleaks' default rules do
    // not know (or know only beside the provider's name): the prefix is enough of a context.
    name: 'provider-token',
    regex:
      /(?<![A-Za-z])(?:gsk_[A-Za-z0-9]{48,}|tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}|ya29\.[\w-]{30,}|(?<![0-9])EAA[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{37}|xai-[A-Za-z0-9]{60,}|nvapi-[\w-]{60,}|sntry[su]_[A-Za-z0-9+/=_]{60,}|bedrock-api-key-[A-Za-z0-9+/=]{60,})(?![\w-])/g,
    hints: ['gsk_', 'tskey-', 'ya29.', 'eaa', 'r8_', 'xai-', 'nvapi-', 'sntrys_', 'sntryu_', 'bedrock-api-key-'],
  },
  {
    // A provider's key no rule knows, by its shape alone (see prefixedToken): a prefix in one
    // case (`tvly`, `BBDC`, `fm2`, a second short part: `lsv2_pt`, `sk-lf`) or a key's number
    // (TrueNAS' `12-…`, whose body is then long and as random as a draw), `_` or `-`, and a body
    // of 20 letters and digits or more, maybe in parts. At a token's start: not inside a path,
    // a base64 run or a name (`/tmp/tmp-…`, `a-b-c…`); not a file's name (`main-3f2a….js`).
    name: 'prefixed-token',
    regex:
      /(?<![A-Za-z0-9_.+/\\-])(?<prefix>[a-z][a-z0-9]{1,7}|[A-Z][A-Z0-9]{1,7}|[A-Z][a-z]{1,4}[A-Z0-9][A-Za-z0-9]{0,3}|\d{1,6})(?:[_-](?<sub>[a-z]{1,4}\d?|[A-Z]{1,4}))?[_-](?<body>(?=(?<run>[A-Za-z0-9]{20,}))\k<run>(?:[_-](?=(?<more>[A-Za-z0-9]{2,}))\k<more>)*)(?![A-Za-z0-9_+/=-]|\.[A-Za-z0-9])/g,
    // Tried once from the name before each `_` or `-` that 20 letters or digits follow, found by
    // `indexOf` (a `-` is on most lines of output: waking a rule at each cost a sixth of redaction).
    near: 'word',
    wordCharacters: /[A-Za-z0-9_-]/,
    places: separatorsBeforeBodies,
    accept: prefixedToken,
  },
  {
    // gitleaks defines it but leaves it out of its default config.
    name: 'square-secret',
    regex: /(?<![A-Za-z])sq0csp-[\w-]{43}(?![\w-])/g,
    hints: ['sq0csp-'],
  },
  {
    name: 'stripe-key',
    regex: /(?<![A-Za-z])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
    hints: ['_live_', '_test_'],
  },
  {
    name: 'stripe-webhook-secret',
    regex: /(?<![A-Za-z])whsec_[A-Za-z0-9+/=]{24,}/g,
    hints: ['whsec_'],
  },
  {
    // header.payload.signature, both of the first two base64url JSON objects ("eyJ" is `{"`);
    // an unsigned token (`alg: none`, or its signature cut off) is header.payload alone.
    name: 'jwt',
    regex: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]{8,})?/g,
    hints: ['eyj'],
  },
  {
    // A JOSE token whose payload is not JSON: a JWS over other content, or a JWE's five parts
    // (header.key.iv.ciphertext.tag; the key is empty for `dir`). Its header says which: base64url
    // of JSON with an `alg`.
    name: 'jwt',
    regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]*){2,4}/g,
    hints: ['eyj'],
    accept: joseToken,
  },
  {
    // Telegram bot tokens: the bot's number, `:`, and `AA` and 33 characters (noseyparker,
    // detect-secrets), with no name needed: nothing else has that shape.
    name: 'telegram-bot-token',
    regex: /(?<![A-Za-z0-9_:-])\d{8,10}:AA[A-Za-z0-9_-]{30,34}(?![A-Za-z0-9_-])/g,
    hints: [':aa'],
    // Tried once from the number before each `:AA`.
    near: 'word',
    wordCharacters: /[0-9]/,
  },
  {
    // Salesforce access and session tokens: an org id (`00D` and 12 or 15 characters), `!`, and
    // the session's own part.
    name: 'salesforce-token',
    regex: /(?<![A-Za-z0-9])00D[A-Za-z0-9]{12,15}![A-Za-z0-9_.]{40,}/g,
    hints: ['00d'],
  },
  {
    // Azure DevOps personal access tokens of the 84-character shape: 76 characters, `AZDO`, 4 more.
    name: 'azure-devops-token',
    regex: /(?<![A-Za-z0-9])[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])/g,
    hints: ['azdo'],
  },
  {
    // Azure DevOps personal access tokens of the older shape: 52 characters of lower-case base32,
    // given to a name that says Azure DevOps (`ado_pat`, `AZURE_DEVOPS_PAT`, `vstsToken`). Bare, the
    // shape is every base32 digest's; near a new-format token (`…AZDO…`) it is no more than that.
    name: 'azure-devops-token',
    regex:
      /(?<![A-Za-z0-9])[\w.-]*(?:[Aa][Dd][Oo][_-]|[Aa]do[A-Z]|[Dd]ev[Oo]ps|DEVOPS|[Vv][Ss][Tt][Ss])[\w.-]*["']?[ \t]*(?::=|=>|:|=)[ \t]*["']?(?<secret>[a-z2-7]{52})(?![A-Za-z0-9+/_-])/g,
    hints: ['devops', 'ado_', 'ado-', 'adopat', 'adotoken', 'vsts'],
    accept: azureDevOpsLegacyToken,
  },
  {
    // Atlassian Data Center's personal access tokens: base64 of an id, `:` and random bytes
    // (`BBDC-MTk4…` for Bitbucket, bare for Confluence and Jira), near a word that names them.
    name: 'atlassian-data-center-token',
    regex: /(?<![A-Za-z0-9+/_-])(?:BBDC-)?(?<secret>[MNO][A-Za-z0-9+/]{39,59}={0,2})(?![A-Za-z0-9+/=_-])/g,
    hints: ['bbdc-', 'atlassian', 'bitbucket', 'confluence', 'jira'],
    near: 'lines',
    accept: atlassianDataCenterToken,
  },
  {
    // LaunchDarkly's keys: `api-`, `sdk-` or `mob-` and a UUID's shape, by that prefix alone.
    name: 'launchdarkly-key',
    regex: /(?<![A-Za-z0-9_.-])(?:api|sdk|mob)-[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}(?![A-Za-z0-9_-])/g,
    hints: ['api-', 'sdk-', 'mob-'],
    accept: launchDarklyKey,
  },
  {
    name: 'bearer-token',
    // RFC 6750's own example, `mF_9.B5f-4.1JqM`, is 15 characters.
    // Okta's API tokens go in `Authorization: SSWS <token>`.
    regex: /\b(?:Bearer|SSWS)\s+(?<secret>[A-Za-z0-9._~+/-]{8,}=*)/gi,
    hints: ['bearer', 'ssws'],
    accept: (secret) => hasLetterAndDigit(secret) && !PLACEHOLDER.test(secret),
  },
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
      !NOT_A_SECRET_NAME.test(nameOf(match[0])) &&
      (match.groups?.compare === undefined || /secret["'\]]*[ \t]*[!=]/i.test(match[0])) &&
      !ownName(secret, /^[A-Za-z0-9_.$@-]*/.exec(match[0])?.[0] ?? '') &&
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

/** Cove's own shapes, then those other scanners test that gitleaks lacks. */
export const BUILT_IN_PATTERNS: readonly SecretPattern[] = [...COVE_PATTERNS, ...PROVIDER_PATTERNS, ...CODE_PATTERNS, ...SCANNER_PATTERNS, ...BARE_VALUE_PATTERNS];
