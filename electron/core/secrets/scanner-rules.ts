/**
 * Credential shapes that other public scanners test and gitleaks' shipped config lacks, each
 * named with where its shape comes from. A provider prefix is context enough (see
 * rule-prefix.ts), so none of these wants an entropy floor.
 */
import { hasLetterAndDigit, shannonEntropy } from './rule-model';
import type { SecretPattern } from './patterns';

/** Artifactory's API keys and passwords begin with these. */
const ARTIFACTORY_PREFIXES = ['AKC', ...[...'0123456789ABCDEF'].map((digit) => `AP${digit}`)];

export const SCANNER_PATTERNS: readonly SecretPattern[] = [
  {
    // trufflehog pkg/detectors/trello: "trello" within 40 characters before a 32-character key
    // (or its 64-character token); gitleaks defines trello-access-token but does not ship it.
    name: 'trello-token',
    regex: /trello(?:.|[\r\n]){0,40}?(?<![A-Za-z0-9-])(?<secret>[A-Za-z0-9-]{64}|[A-Za-z0-9-]{32})(?![A-Za-z0-9-])/gi,
    hints: ['trello'],
    near: 'lines',
  },
  {
    // Trello's (Atlassian's) newer API tokens begin with ATTA.
    name: 'trello-token',
    regex: /(?<![A-Za-z])ATTA[A-Za-z0-9_=-]{56,}(?![\w=-])/g,
    hints: ['atta'],
  },
  {
    // secretlint-rule-figma: personal access tokens.
    name: 'figma-token',
    regex: /(?<![A-Za-z])figd_[A-Za-z0-9_-]{40,200}(?![A-Za-z0-9_-])/g,
    hints: ['figd_'],
  },
  {
    // secretlint-rule-docker: Docker Hub personal access tokens.
    name: 'docker-hub-token',
    regex: /(?<![A-Za-z])dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}(?![A-Za-z0-9_-])/g,
    hints: ['dckr_'],
  },
  {
    // secretlint-rule-vercel: personal, integration, app, refresh and API-key tokens.
    name: 'vercel-token',
    regex: /(?<![A-Za-z])vc[pciakr]_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])/g,
    hints: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  },
  {
    // secretlint-rule-cloudflare: API tokens of the new shape.
    name: 'cloudflare-token',
    regex: /(?<![A-Za-z])(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])/g,
    hints: ['cfk_', 'cfut_', 'cfat_'],
  },
  {
    // secretlint-rule-hashicorp-vault: recovery tokens (gitleaks knows service and batch ones).
    name: 'vault-token',
    regex: /(?<![A-Za-z])hvr\.[A-Za-z0-9_-]{90,120}(?![A-Za-z0-9_-])/g,
    hints: ['hvr.'],
  },
  {
    // trufflehog pkg/detectors/supabasetoken: management API tokens.
    name: 'supabase-token',
    regex: /(?<![A-Za-z])sbp_[a-z0-9]{40}(?![a-z0-9])/g,
    hints: ['sbp_'],
  },
  {
    // trufflehog pkg/detectors/netlify: personal access tokens of the nfp_ shape.
    name: 'netlify-token',
    regex: /(?<![A-Za-z])nf[pcou]_[A-Za-z0-9]{36,}(?![A-Za-z0-9])/g,
    hints: ['nfp_', 'nfc_', 'nfo_', 'nfu_'],
  },
  {
    // trufflehog pkg/detectors/render: API keys.
    name: 'render-api-key',
    regex: /(?<![A-Za-z])rnd_[A-Za-z0-9]{32}(?![A-Za-z0-9])/g,
    hints: ['rnd_'],
  },
  {
    // trufflehog pkg/detectors/hubspot_apikey (v2): private-app tokens, a region and a UUID.
    name: 'hubspot-token',
    regex: /(?<![A-Za-z])pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
    hints: ['pat-na', 'pat-eu', 'pat-ap'],
  },
  {
    // gitleaks ships doppler's personal tokens (dp.pt.); trufflehog's doppler detector knows the
    // service, CLI, SCIM and audit ones too.
    name: 'doppler-token',
    regex: /(?<![A-Za-z])dp\.(?:st|ct|scim|audit|sa)\.[A-Za-z0-9_.-]{40,}(?![A-Za-z0-9_-])/g,
    hints: ['dp.st.', 'dp.ct.', 'dp.scim.', 'dp.audit.', 'dp.sa.'],
  },
  {
    // detect-secrets MailchimpDetector: 32 hex digits and the data centre (`-us6`).
    name: 'mailchimp-api-key',
    regex: /\b[0-9a-f]{32}-us\d{1,2}\b/g,
    hints: ['-us'],
  },
  {
    // noseyparker's pwhash and krb5 rules: crypt(3) password hashes (md5crypt and Apache's
    // `$apr1$` of .htpasswd, bcrypt, sha256/512crypt, Cisco type 8/9, yescrypt) and Kerberos
    // AS-REP/TGS hashes, which crack offline into the password. Each begins with its `$id$`, so
    // the prefix is the context; an md5crypt body longer than its 22 characters (a test's
    // `…hardcoded` suffix) is hidden whole rather than left.
    name: 'password-hash',
    regex:
      /(?<![\w$])\$(?:(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22,}|2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|[56]\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}|[89]\$[./A-Za-z0-9]{14}\$[./A-Za-z0-9]{43}|y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{1,64}\$[./A-Za-z0-9]{43}|krb5(?:asrep|tgs)\$\d{1,2}\$(?:[^\s$:]*[:$])?[0-9a-f]{32}\$[0-9a-f]{64,})(?![./A-Za-z0-9])/g,
    hints: ['$1$', '$apr1$', '$2$', '$2a$', '$2b$', '$2x$', '$2y$', '$5$', '$6$', '$8$', '$9$', '$y$', '$krb5'],
  },
  {
    // The salted and unsalted SHA hashes of .htpasswd and LDAP's userPassword (`{SHA}` and
    // `{SSHA}`, 20 bytes and more of base64), which crack offline like crypt(3)'s: the scheme in
    // braces is the context, so a bare base64 string is never taken for one.
    name: 'password-hash',
    regex: /\{S?SHA(?:256|384|512)?\}[A-Za-z0-9+/]{27,}={0,2}(?![A-Za-z0-9+/=])/gi,
    hints: ['{sha', '{ssha'],
  },
  {
    // detect-secrets ArtifactoryDetector: API keys (`AKC…`) and passwords (`AP` and a hex digit),
    // test ones with a filler body (`AP6xxxxxxxxxx`) too: the prefix says whose they are. A word
    // in capitals (`APACHELICENSE`) has no digit after its prefix and is left.
    name: 'artifactory-token',
    // Each prefix spelt out, so the rule is tried once where its hint is (`escape` holds `ape`).
    regex: new RegExp(`(?<![A-Za-z0-9_+/.-])(?:${ARTIFACTORY_PREFIXES.join('|')})[A-Za-z0-9]{8,}(?![A-Za-z0-9_-])`, 'g'),
    hints: ARTIFACTORY_PREFIXES.map((prefix) => prefix.toLowerCase()),
    accept: (secret) =>
      (!secret.startsWith('AKC') || secret.length >= 13) && (/^(?:AKC|AP[0-9A-F])(.)\1{7,}$/.test(secret) || (hasLetterAndDigit(secret.slice(3)) && shannonEntropy(secret) >= 3)),
  },
  {
    // trufflehog pkg/detectors/bitbucketapppassword: Bitbucket app passwords begin `ATBB`, found
    // bare or beside their user (`user1:ATBB…`) as well as in a URL.
    name: 'bitbucket-app-password',
    regex: /(?<![A-Za-z0-9])ATBB[A-Za-z0-9_=.-]{20,}(?![A-Za-z0-9_=.-])/g,
    hints: ['atbb'],
    accept: (secret) => hasLetterAndDigit(secret.slice(4)),
  },
  {
    // trufflehog pkg/detectors/pinecone and others: "pcsk_" serverless API keys.
    name: 'pinecone-api-key',
    regex: /(?<![A-Za-z])pcsk_[A-Za-z0-9]{5,10}_[A-Za-z0-9]{40,}(?![A-Za-z0-9])/g,
    hints: ['pcsk_'],
  },
];
