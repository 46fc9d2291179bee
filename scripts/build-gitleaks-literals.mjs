// Builds test/fixtures/secrets/gitleaks-literals.json from gitleaks' own rule tests (MIT): the
// literal strings each rule in cmd/generate/config/rules/*.go lists as true positives (`tps`) and
// false positives (`fps`). Cove's generated corpus (build-secret-corpus.mjs) takes the samples
// gitleaks generates from its regexes; these are the ones its maintainers wrote by hand, the fps
// mostly from false alarms reported on real code (placeholders, names in code, public keys). An
// entry built by a call (`secrets.NewSecret(…)`, `utils.GenerateSampleSecrets(…)`) is skipped:
// only string literals, joined with `+`, are read.
// Usage: node scripts/build-gitleaks-literals.mjs MIRROR_DIR
//   where MIRROR_DIR holds gitleaks+gitleaks/repo, a bare git dir (as `fetch` leaves it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorReader } from './mirror-git.mjs';

const mirror = process.argv[2];
if (!mirror) {
  console.error('usage: node scripts/build-gitleaks-literals.mjs MIRROR_DIR (holding gitleaks+gitleaks/repo)');
  process.exit(2);
}
const SOURCES = { gitleaks: { repo: 'gitleaks/gitleaks', licence: 'MIT' } };
const { files, show, withCommits } = mirrorReader(mirror, SOURCES);

/** A Go string literal at `at` (raw `…` or interpreted "…"): [value, next index], or undefined. */
function goString(source, at) {
  if (source[at] === '`') {
    const close = source.indexOf('`', at + 1);
    return [source.slice(at + 1, close), close + 1];
  }
  if (source[at] !== '"') return undefined;
  let close = at + 1;
  while (source[close] !== '"') close += source[close] === '\\' ? 2 : 1;
  // Go's escapes that JSON lacks: \x.., \', \a, \v.
  const json = source
    .slice(at, close + 1)
    .replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')
    .replace(/\\'/g, "'")
    .replace(/\\a/g, '\\u0007')
    .replace(/\\v/g, '\\u000b');
  return [JSON.parse(json), close + 1];
}

/** Past blanks and comments. */
function skipBlank(source, at) {
  for (;;) {
    while (/\s/.test(source[at])) at++;
    if (source.startsWith('//', at)) at = source.indexOf('\n', at);
    else if (source.startsWith('/*', at)) at = source.indexOf('*/', at) + 2;
    else return at;
  }
}

/** The end of an element that is not literals alone: its `,` or the list's `close`, at depth 0. */
function skipElement(source, at, close) {
  let depth = 0;
  for (;;) {
    const char = source[at];
    if (char === '"' || char === '`') at = goString(source, at)[1];
    else if (source.startsWith('//', at)) at = source.indexOf('\n', at);
    else if (depth === 0 && (char === ',' || char === close)) return at;
    else {
      if ('({['.includes(char)) depth++;
      else if (')}]'.includes(char) && depth > 0) depth--;
      at++;
    }
  }
}

/** A Go list's literal elements up to `close`; [values, elements skipped, index after close]. */
function literals(source, at, close) {
  const values = [];
  let skipped = 0;
  for (;;) {
    at = skipBlank(source, at);
    if (source[at] === close) return [values, skipped, at + 1];
    const parts = [];
    let next = at;
    for (;;) {
      const read = goString(source, skipBlank(source, next));
      if (!read) break;
      parts.push(read[0]);
      next = skipBlank(source, read[1]);
      if (source[next] !== '+') break;
      next++;
    }
    if (parts.length > 0 && (source[next] === ',' || source[next] === close)) {
      values.push(parts.join(''));
    } else {
      skipped++;
      next = skipElement(source, at, close);
    }
    at = source[next] === ',' ? next + 1 : next;
  }
}

const positives = [];
const negatives = [];
let skipped = 0;
const folder = 'cmd/generate/config/rules/';
for (const path of files('gitleaks', folder).filter((name) => name.endsWith('.go') && !name.endsWith('_test.go'))) {
  const source = show('gitleaks', path);
  const list = /\b(tps|fps)\s*:?=\s*(?:\[\]string\{|append\(\s*(?:tps|fps)\s*,)/g;
  for (let match = list.exec(source); match; match = list.exec(source)) {
    const rule = [...source.slice(0, match.index).matchAll(/RuleID:\s*"([^"]+)"/g)].at(-1)?.[1];
    const [values, skippedHere] = literals(source, list.lastIndex, match[0].endsWith('{') ? '}' : ')');
    skipped += skippedHere;
    for (const text of values) (match[1] === 'tps' ? positives : negatives).push({ rule, path: path.slice(folder.length), text });
  }
}
const out = join(import.meta.dirname, '../test/fixtures/secrets/gitleaks-literals.json');
writeFileSync(out, `${JSON.stringify({ sources: withCommits(), positives, negatives }, null, 1)}\n`);
console.log(`wrote ${out}: ${positives.length} positives, ${negatives.length} negatives; ${skipped} entries built by calls skipped`);
