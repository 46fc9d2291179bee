/**
 * Built-in patterns for credentials that have a recognizable shape. Each is written to miss
 * look-alikes that are not secret (git hashes, UUIDs, base64 of ordinary data, "sk-" in prose):
 * a provider prefix, a length, and for loose shapes a context such as `password=` and a value
 * that mixes letters and digits.
 *
 * Most shapes come from gitleaks' maintained rules (gitleaks-rules.ts); these are the ones it
 * lacks or holds too tightly for redaction (where a miss costs more than a false alarm).
 */
import { ASSIGNMENT_PATTERNS } from './assignment-patterns';
import { BARE_VALUE_PATTERNS } from './bare-values';
import { CODE_PATTERNS } from './code-patterns';
import { prefixedToken, separatorsBeforeBodies } from './prefixed-token';
import { PROVIDER_PATTERNS } from './provider-shapes';
import { hasLetterAndDigit } from './rule-model';
import type { ValueAfter } from './keyword-anchors';
import { SCANNER_PATTERNS } from './scanner-rules';
import { PLACEHOLDER } from './value-checks';
import { atlassianDataCenterToken, joseToken, azureDevOpsLegacyToken, launchDarklyKey } from './token-shapes';

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
];

/** Cove's own shapes and context rules, then those other scanners test that gitleaks lacks. */
export const BUILT_IN_PATTERNS: readonly SecretPattern[] = [...COVE_PATTERNS, ...ASSIGNMENT_PATTERNS, ...PROVIDER_PATTERNS, ...CODE_PATTERNS, ...SCANNER_PATTERNS, ...BARE_VALUE_PATTERNS];
