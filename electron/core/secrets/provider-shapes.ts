/**
 * Providers' own token prefixes where the rule that knows the prefix wants one exact length or
 * alphabet (gitleaks' `glptt-[0-9a-f]{40}`, `GR1348941[\w-]{20}`, `sq0csp-[\w-]{43}`): a token of
 * another length, a newer format or a test key typed by hand is missed, or cut where the rule's
 * length ends and its tail shown. The prefix is the provider's mark, made for scanners to find,
 * and context enough: what follows it to the end of the token is the secret, whatever its length.
 * detect-secrets' gitlab plugin and ripsecrets test these shapes. Filler (`glptt-xxxx…`, `0000…`)
 * is a placeholder and is left.
 */
import type { SecretPattern } from './patterns';
import { hasLetterAndDigit, shannonEntropy } from './rule-model';

/** The characters docs fill a placeholder with. */
const FILLER = /^[xX0*#.]+$/;

/** A token's body after its prefix: not filler, and letters or digits of more than one kind. */
const notFiller = (body: string) => !FILLER.test(body.replace(/[-_]/g, '')) && /[A-Za-z0-9]/.test(body) && new Set(body).size >= 4;

/** GitLab's token prefixes (docs.gitlab.com's "Token prefixes"), all but `glpat-`, patterns.ts' own. */
const GITLAB_PREFIXES = ['gldt', 'glft', 'glimt', 'glptt', 'glagent', 'gloas', 'glcbt', 'glrt', 'glrtr', 'glsoat', 'glffct', 'glwt', 'gltst'];

export const PROVIDER_PATTERNS: readonly SecretPattern[] = [
  {
    // GitLab's tokens: a prefix and 20 or more of `[A-Za-z0-9_-]` (a CI job token's partition
    // `glcbt-64_…`, a routable token's `.01.…` part), and the runner registration token's
    // `GR1348941`. A hyphen or underscore inside the body is part of it.
    name: 'gitlab-token',
    regex: new RegExp(String.raw`(?<![A-Za-z0-9_-])(?:(?:${GITLAB_PREFIXES.join('|')})-|GR1348941)(?<body>[\w-]{20,}(?:\.[\w-]{2,})*)(?![\w-])`, 'g'),
    hints: [...GITLAB_PREFIXES.map((prefix) => `${prefix}-`), 'gr1348941'],
    accept: (_secret, match) => notFiller(match.groups?.body ?? ''),
  },
  {
    // Square's OAuth secret (`sq0csp-`), access token (`sq0atp-`) and the `sq0idk-` key
    // ripsecrets tests, of any length from 22 (gitleaks wants the secret's 43 exactly).
    name: 'square-secret',
    regex: /(?<![A-Za-z0-9_-])sq0(?:csp|atp|idk)-(?<body>[\w-]{22,})(?![\w-])/g,
    hints: ['sq0csp-', 'sq0atp-', 'sq0idk-'],
    accept: (_secret, match) => notFiller(match.groups?.body ?? ''),
  },
  {
    // Square's access tokens of the newer shape, `EAAA` and base64 (`+`, `/`, `=` in it, where
    // gitleaks' rule and provider-token stop at the first and leave the rest shown). At a
    // token's start, not inside a base64 run; long and random.
    name: 'square-secret',
    regex: /(?<![A-Za-z0-9+/=_-])EAAA[A-Za-z0-9_-]{20,}[+/=][A-Za-z0-9_+/=-]{4,}(?![A-Za-z0-9_+/=-])/g,
    hints: ['eaaa'],
    accept: (secret) => secret.length >= 48 && hasLetterAndDigit(secret) && shannonEntropy(secret) >= 4,
  },
  {
    // Mailgun's API keys of the newer shape: 32 hex digits, `-`, 8, `-`, 8 (trufflehog's
    // detector), near Mailgun's name wherever it is (gitleaks wants it just before the value).
    // No UUID, hash or version has that shape.
    name: 'mailgun-key',
    regex: /(?<![A-Za-z0-9_-])[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}(?![A-Za-z0-9_-])/g,
    hints: ['mailgun'],
    near: 'lines',
    accept: (secret) => hasLetterAndDigit(secret) && notFiller(secret),
  },
  {
    // AWS STS session tokens, bare (`aws sts assume-role`'s output, a pasted credentials file):
    // base64 whose bytes spell `origin_ec` (`IQoJb3JpZ2luX2Vj…`, today's) or `er/aws`
    // (`FwoGZXIvYXdz…`, older) after the first three, hundreds of characters long. Under a
    // token's name the assignment rules hide them; bare, only this shape tells.
    name: 'aws-session-token',
    regex: /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{4}(?:b3JpZ2luX2Vj|ZXIvYXdz)[A-Za-z0-9+/]{80,}={0,2}(?![A-Za-z0-9+/=])/g,
    hints: ['b3jpz2lux2vj', 'zxivyxdz'],
  },
];
