// Builds Cove's held-out credential corpus from other scanners' own test suites, so the corpus
// is not generated from the regexes Cove redacts with (test/fixtures/secrets/gitleaks-formats.json
// is). Every sample keeps its source repository, commit and path.
//   - noseyparker (Apache-2.0): each rule's `examples` (the secret is the rule's last capture
//     group on the example) and `negative_examples` (look-alikes).
//   - secretlint (MIT): each rule's test/snapshots/ng.*/input.txt with the ranges its
//     output.json reports; ok.* inputs are look-alikes.
//   - trufflehog (AGPL-3.0; example strings only): each pattern test case whose `want` strings
//     appear in its `input`. `want: nil` cases are not look-alikes there (an "out of range" key is
//     still a key), so none are taken.
//   - detect-secrets (Apache-2.0): `('payload', True)` cases of tests/plugins/*_test.py.
// Usage: node --import tsx scripts/build-scanner-corpus.mjs MIRROR_DIR
//   where MIRROR_DIR holds owner+name/repo bare git dirs (as `fetch` leaves them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorReader } from './mirror-git.mjs';
import yaml from 'js-yaml';
import { re2ToJs } from '../electron/core/secrets/re2-to-js.ts';
import { rustToRe2 } from '../electron/core/secrets/rust-regex.ts';

const mirror = process.argv[2];
if (!mirror) {
  console.error('usage: node --import tsx scripts/build-scanner-corpus.mjs MIRROR_DIR (holding owner+name/repo bare git dirs)');
  process.exit(2);
}
const SOURCES = {
  noseyparker: { repo: 'praetorian-inc/noseyparker', licence: 'Apache-2.0' },
  secretlint: { repo: 'secretlint/secretlint', licence: 'MIT' },
  trufflehog: { repo: 'trufflesecurity/trufflehog', licence: 'AGPL-3.0 (example strings from its tests)' },
  'detect-secrets': { repo: 'Yelp/detect-secrets', licence: 'Apache-2.0' },
};
const { files, show, withCommits } = mirrorReader(mirror, SOURCES);

const samples = [];
const lookAlikes = [];
const skipped = {};
const skip = (why) => (skipped[why] = (skipped[why] ?? 0) + 1);
/** A secret shorter than this is a fragment, not something a leak check can look for. */
const MIN_SECRET = 8;

function compileNoseyparker(pattern) {
  return new RegExp(re2ToJs(rustToRe2(pattern)), 'g');
}

/**
 * A rule's negative example is often another rule's positive (a Slack bot token under the user
 * token rule, a Vault token of the other shape): it is a look-alike only if no secret rule of
 * noseyparker's matches it.
 */
const negatives = [];
const secretRules = [];

function noseyparker() {
  const name = 'noseyparker';
  const folder = 'crates/noseyparker/data/default/builtin/rules';
  for (const path of files(name, folder).filter((file) => file.endsWith('.yml'))) {
    for (const rule of yaml.load(show(name, path)).rules ?? []) {
      try {
        if ((rule.categories ?? []).includes('secret')) secretRules.push(compileNoseyparker(rule.pattern));
      } catch {
        // Counted below, where the rule's examples are skipped.
      }
      for (const text of rule.negative_examples ?? []) negatives.push({ source: name, path, format: rule.id, text });
      // Identifiers (client IDs, bucket names, account numbers) are not secrets to Cove.
      if (!(rule.categories ?? []).includes('secret')) {
        skip('noseyparker: not a secret');
        continue;
      }
      let regex;
      try {
        regex = compileNoseyparker(rule.pattern);
      } catch {
        skip('noseyparker: pattern not translatable');
        continue;
      }
      for (const text of rule.examples ?? []) {
        const match = [...text.matchAll(regex)][0];
        let secret = match?.slice(1).findLast((group) => group);
        // A URL's `user:password` in one group: the password is the secret, the user is not.
        if (secret && /^[^:@\s/]+:[^@\s]+$/.test(secret) && text.includes(`${secret}@`)) secret = secret.slice(secret.indexOf(':') + 1);
        if (!secret || secret.length < MIN_SECRET) {
          skip('noseyparker: no secret found in example');
          continue;
        }
        samples.push({ source: name, path, format: `noseyparker:${rule.id}`, name: rule.name, text, secret });
      }
    }
  }
  for (const negative of negatives) {
    if (secretRules.some((regex) => [...negative.text.matchAll(regex)].some((match) => match.slice(1).some((group) => group?.length >= MIN_SECRET))))
      skip('noseyparker: negative another rule finds');
    else lookAlikes.push(negative);
  }
}

function secretlint() {
  const name = 'secretlint';
  const snapshots = files(name, 'packages/@secretlint').filter((file) => /secretlint-rule-[^/]+\/test\/snapshots\/[^/]+\/input\.[^/]+$/.test(file));
  for (const path of snapshots) {
    const rule = /secretlint-rule-([^/]+)\//.exec(path)[1];
    const snapshot = path.split('/').at(-2);
    // Rules about files or comments, not credential shapes.
    if (['no-dotenv', 'no-homedir', 'filter-comments', 'pattern', 'example', 'preset-canary', 'preset-recommend'].includes(rule)) continue;
    const text = show(name, path);
    // ok.allows* are real shapes a rule's allow-list excuses, not look-alikes.
    if (snapshot.startsWith('ok.allows')) continue;
    if (snapshot.startsWith('ok.')) {
      // One look-alike a line, comments (the file's own notes) left out.
      for (const line of text.split('\n')) if (line.trim() && !/^\s*(?:#|\/\/)/.test(line)) lookAlikes.push({ source: name, path, format: rule, text: line });
      continue;
    }
    let output;
    try {
      output = JSON.parse(show(name, path.replace(/input\.[^/]+$/, 'output.json')));
    } catch {
      skip('secretlint: no output.json');
      continue;
    }
    for (const message of output.messages ?? []) {
      const secret = text.slice(message.range[0], message.range[1]);
      if (secret.length < MIN_SECRET) continue;
      samples.push({ source: name, path, format: `secretlint:${rule}:${message.messageId ?? ''}`, name: message.data?.typeName ?? rule, text, secret });
    }
  }
}

/** Go string literals (`…` or "…") at `at`, joined by `+`; undefined where something else stands. */
function goString(source, at, vars) {
  const parts = [];
  let index = at;
  for (;;) {
    while (/\s/.test(source[index] ?? '')) index++;
    if (source[index] === '`') {
      const close = source.indexOf('`', index + 1);
      if (close === -1) return undefined;
      parts.push(source.slice(index + 1, close));
      index = close + 1;
    } else if (source[index] === '"') {
      let close = index + 1;
      while (close < source.length && source[close] !== '"') close += source[close] === '\\' ? 2 : 1;
      if (close >= source.length) return undefined;
      try {
        parts.push(JSON.parse(source.slice(index, close + 1)));
      } catch {
        return undefined;
      }
      index = close + 1;
    } else if (source.startsWith('fmt.Sprintf(', index)) {
      // fmt.Sprintf("… %s …", a, b): each verb takes the next argument, literal or variable.
      const format = goString(source, index + 'fmt.Sprintf('.length, vars);
      if (!format) return undefined;
      const args = [];
      index = format.next;
      for (;;) {
        while (/\s/.test(source[index] ?? '')) index++;
        if (source[index] === ')') break;
        if (source[index] !== ',') return undefined;
        const arg = goString(source, index + 1, vars);
        if (!arg) return undefined;
        args.push(arg.value);
        index = arg.next;
      }
      index++;
      let used = 0;
      parts.push(format.value.replace(/%[sqv]/g, (verb) => (verb === '%q' ? JSON.stringify(args[used++] ?? '') : (args[used++] ?? ''))));
    } else {
      const word = /^[A-Za-z_]\w*/.exec(source.slice(index))?.[0];
      if (!word || vars.get(word) === undefined || source[index + word.length] === '(') return undefined;
      parts.push(vars.get(word));
      index += word.length;
    }
    const after = /^\s*\+/.exec(source.slice(index));
    if (!after) return { value: parts.join(''), next: index };
    index += after[0].length;
  }
}

function trufflehog() {
  const name = 'trufflehog';
  const tests = files(name, 'pkg/detectors').filter((file) => file.endsWith('_test.go') && !file.includes('integration'));
  for (const path of tests) {
    const source = show(name, path);
    const detector = path.split('/').slice(2, -1).join('/');
    // Package-level `name = literal` (validPattern, secret, keyword…), in the order they are written.
    const vars = new Map();
    for (const match of source.matchAll(/^\s*(\w+)\s*(?:string\s*)?=\s*(?=[`"])/gm)) {
      const value = goString(source, match.index + match[0].length, vars);
      if (value) vars.set(match[1], value.value);
    }
    for (const match of source.matchAll(/\binput:\s*/g)) {
      const input = goString(source, match.index + match[0].length, vars);
      if (!input) {
        skip('trufflehog: input not a literal');
        continue;
      }
      const want = /^\s*,?\s*want:\s*\[\]string\{([^}]*)\}/.exec(source.slice(input.next));
      if (!want) continue;
      const wanted = [];
      for (let at = 0; at < want[1].length;) {
        const value = goString(want[1], at, vars);
        if (!value) break;
        wanted.push(value.value);
        at = want[1].indexOf(',', value.next) === -1 ? want[1].length : want[1].indexOf(',', value.next) + 1;
        if (!want[1].slice(at).trim()) break;
      }
      for (const secret of new Set(wanted)) {
        // A `want` is often the key and its id joined (`id:secret`): keep the parts the input holds.
        // The longest part is the secret; the others are ids and user names, not secrets to Cove.
        const parts = input.value.includes(secret)
          ? [secret]
          : secret
              .split(/[:;|]/)
              .filter((part) => part.length >= MIN_SECRET && input.value.includes(part))
              .sort((a, b) => b.length - a.length)
              .slice(0, 1);
        if (parts.length === 0) skip('trufflehog: want not in input');
        for (const part of parts) {
          if (part.length < MIN_SECRET) continue;
          samples.push({ source: name, path, format: `trufflehog:${detector}`, name: detector, text: input.value, secret: part });
        }
      }
    }
  }
}

function detectSecrets() {
  const name = 'detect-secrets';
  for (const path of files(name, 'tests/plugins').filter((file) => file.endsWith('_test.py'))) {
    const plugin = path
      .split('/')
      .at(-1)
      .replace(/_test\.py$/, '');
    // Entropy and keyword plugins flag by heuristics whose cases are not credential formats.
    if (['high_entropy_strings', 'keyword', 'base', 'ip_public'].includes(plugin)) continue;
    const source = show(name, path);
    for (const match of source.matchAll(/\(\s*(?:f?'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")\s*,\s*True\s*\)/g)) {
      const text = (match[1] ?? match[2]).replace(/\\(['"\\])/g, '$1');
      // The case names no secret: the longest run of token characters in it is the one.
      const secret = (text.match(/[A-Za-z0-9+/=_.~-]{12,}/g) ?? []).sort((a, b) => b.length - a.length)[0];
      if (!secret) {
        skip('detect-secrets: no token in case');
        continue;
      }
      samples.push({ source: name, path, format: `detect-secrets:${plugin}`, name: plugin, text, secret });
    }
  }
}

for (const [name, build] of [
  ['noseyparker', noseyparker],
  ['secretlint', secretlint],
  ['trufflehog', trufflehog],
  ['detect-secrets', detectSecrets],
]) {
  const before = samples.length;
  build();
  console.log(`${name}: ${samples.length - before} samples`);
}

// The same text and secret from two cases is one sample.
const seen = new Set();
/** What some detectors return beside the key (RawV2 holds the host or the user too): not secrets. */
const NOT_SECRET =
  /^(?:localhost|password|secret|admin|root|user|username|test)$|^(?:[a-z][a-z0-9+.-]*:)?\/\/|^[^\s@]+@[\w-]+(?:\.[\w-]+)+$|^[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|dev|cloud)$/i;
const unique = samples.filter((sample) => {
  // A binary fixture (secretlint has one with NUL bytes) is not text a tool shows.
  if (sample.text.includes('\0')) return skip(`${sample.source}: binary`) && false;
  if (NOT_SECRET.test(sample.secret)) return skip(`${sample.source}: a host, URL or address, not a secret`) && false;
  const key = `${sample.format}\0${sample.secret}\0${sample.text}`;
  return !seen.has(key) && seen.add(key);
});
const sources = withCommits();
const out = join(import.meta.dirname, '../test/fixtures/secrets/scanner-corpus.json');
writeFileSync(out, `${JSON.stringify({ sources, samples: unique, lookAlikes }, null, 1)}\n`);
const formats = new Set(unique.map((sample) => sample.format));
console.log(`${unique.length} samples in ${formats.size} formats, ${lookAlikes.length} look-alikes, written to ${out}`);
console.log('skipped:', skipped);
