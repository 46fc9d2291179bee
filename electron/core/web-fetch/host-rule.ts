/**
 * The host a `web_fetch(domain:…)` rule names: `domain:example.com` is that host only,
 * `domain:*.example.com` its subdomains. Hosts compare lowercased, without brackets or a
 * trailing dot, so `Example.COM.` and `example.com` are one host to a rule.
 */

export interface HostPattern {
  text: string;
  matches(host: string): boolean;
  /** Names one host or one private suffix: the only kind that may open a private address. */
  explicit: boolean;
}

const LABELS = /^(\*\.)?([a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\]|[0-9a-f:.]+)$/;

export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** Throws an Error saying what is wrong when the specifier is not `domain:HOST`. */
export function parseHostSpecifier(specifier: string): HostPattern {
  const trimmed = specifier.trim();
  if (!trimmed.startsWith('domain:')) throw new Error(`web_fetch rules are web_fetch(domain:example.com) or web_fetch(domain:*.example.com) (got '${trimmed}')`);
  const raw = trimmed.slice('domain:'.length).trim().toLowerCase();
  if (raw === '*') return { text: trimmed, matches: () => true, explicit: false };
  if (!LABELS.test(raw)) throw new Error(`'${raw}' is not a host name; write web_fetch(domain:example.com), without a scheme, port or path`);
  if (raw.startsWith('*.')) {
    const suffix = normalizeHost(raw.slice(2));
    return { text: trimmed, matches: (host) => normalizeHost(host).endsWith(`.${suffix}`), explicit: true };
  }
  const exact = normalizeHost(raw);
  return { text: trimmed, matches: (host) => normalizeHost(host) === exact, explicit: true };
}

/** The `domain:` patterns of the `web_fetch(…)` rules among `rules`; other rules are skipped. */
export function webFetchHostPatterns(rules: readonly string[]): HostPattern[] {
  const patterns: HostPattern[] = [];
  for (const rule of rules) {
    const match = /^\s*web_fetch\((.*)\)\s*$/.exec(rule);
    if (!match) continue;
    try {
      patterns.push(parseHostSpecifier(match[1]!));
    } catch {
      // The rule parser reports malformed rules where they are loaded; here they open nothing.
    }
  }
  return patterns;
}

/** The host of a web_fetch call's `url`, or null when it is not an http(s) URL. */
export function hostOfUrl(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? normalizeHost(parsed.hostname) : null;
  } catch {
    return null;
  }
}
