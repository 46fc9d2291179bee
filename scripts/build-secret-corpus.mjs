// Derives Cove's credential corpus from gitleaks' own rule tests (MIT): every
// `utils.GenerateSampleSecrets(identifier, secret)` call in cmd/generate/config/rules/*.go
// becomes a format, with the regex gitleaks generates its sample secret from. Token bodies are
// generated from those regexes at test time (test/support/secret-corpus.ts), so no real-looking
// secret is stored and each run sees fresh ones.
// Usage: node scripts/build-secret-corpus.mjs /path/to/gitleaks-checkout
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const checkout = process.argv[2];
if (!checkout) {
  console.error('usage: node scripts/build-secret-corpus.mjs /path/to/gitleaks-checkout');
  process.exit(2);
}
const UTILS = {
  Numeric: (n) => `[0-9]{${n}}`,
  Hex: (n) => `[a-f0-9]{${n}}`,
  AlphaNumeric: (n) => `[a-z0-9]{${n}}`,
  AlphaNumericExtendedShort: (n) => `[a-z0-9_-]{${n}}`,
  AlphaNumericExtended: (n) => `[a-z0-9=_\\-]{${n}}`,
  AlphaNumericExtendedLong: (n) => `[a-z0-9\\/=_\\+\\-]{${n}}`,
  Hex8_4_4_4_12: () => '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
};
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Reads a Go expression at `at`; returns [regex source, next index] or throws. */
function expression(source, at, raw) {
  const parts = [];
  let index = at;
  for (;;) {
    while (/\s/.test(source[index])) index++;
    let part;
    if (source[index] === '"') {
      let close = index + 1;
      while (source[close] !== '"' || source[close - 1] === '\\') close++;
      const text = JSON.parse(source.slice(index, close + 1));
      part = raw ? text : escapeRegex(text);
      index = close + 1;
    } else if (source[index] === '`') {
      const close = source.indexOf('`', index + 1);
      const text = source.slice(index + 1, close);
      part = raw ? text : escapeRegex(text);
      index = close + 1;
    } else if (source.startsWith('secrets.NewSecret(', index)) {
      const [inner, next] = expression(source, index + 'secrets.NewSecret('.length, true);
      if (source[next] !== ')') throw new Error('unclosed NewSecret');
      part = `(?:${inner})`;
      index = next + 1;
    } else {
      const call = /^utils\.(\w+)\((?:"(\d+)")?\)/.exec(source.slice(index));
      if (!call || !UTILS[call[1]]) throw new Error(`unknown expression at ${source.slice(index, index + 40)}`);
      part = UTILS[call[1]](call[2]);
      index += call[0].length;
    }
    parts.push(part);
    while (/\s/.test(source[index])) index++;
    if (source[index] !== '+') return [parts.join(''), index];
    index++;
  }
}

const folder = join(checkout, 'cmd/generate/config/rules');
const formats = [];
let skipped = 0;
for (const file of readdirSync(folder)
  .filter((name) => name.endsWith('.go') && !name.endsWith('_test.go'))
  .sort()) {
  const source = readFileSync(join(folder, file), 'utf8');
  const call = /utils\.GenerateSampleSecrets\(\s*"([^"]*)"\s*,\s*/g;
  for (let match = call.exec(source); match; match = call.exec(source)) {
    const rule = [...source.slice(0, match.index).matchAll(/RuleID:\s*"([^"]+)"/g)].at(-1)?.[1];
    try {
      const [pattern, next] = expression(source, call.lastIndex, false);
      if (source[next] !== ')') throw new Error('not a whole argument');
      formats.push({ rule, identifier: match[1], pattern });
    } catch {
      skipped++;
    }
  }
}
const commit = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
const out = join(import.meta.dirname, '../test/fixtures/secrets/gitleaks-formats.json');
writeFileSync(out, `${JSON.stringify({ source: 'gitleaks cmd/generate/config/rules/*.go (MIT)', commit, formats }, null, 1)}\n`);
console.log(`${formats.length} formats written (${skipped} calls skipped) to ${out}`);
