// Builds the second part of Cove's held-out credential corpus, from scanners whose tests are
// whole files rather than one example per rule: secrets written into configuration and code the
// way people write them (lists under a password's name, a name and its value in two fields, an
// environment lookup's default), and the look-alikes those suites keep beside them. Every sample
// keeps its source repository, commit and path (test/support/scanner-corpus.ts reads it with
// scanner-corpus.json).
//   - whispers (Skyscanner, Apache-2.0): tests/fixtures/*, whose values under `noncompliant`
//     (or `# Noncompliant`) are all spelled with `hardcoded`; those under `compliant` are
//     look-alikes. A sample's text is its line and the lines before it back to a blank one (at
//     most four), so a value whose name is on an earlier line keeps it.
//   - ripsecrets (MIT): test/one_per_line/* (each line holds a secret) and test/one_per_file/*.
//     Neither names the secret: a quoted value, a URL's password, or the longest run of token
//     characters is the one.
// Usage: node scripts/build-config-corpus.mjs MIRROR_DIR
//   where MIRROR_DIR holds owner+name/repo bare git dirs (as `fetch` leaves them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorReader } from './mirror-git.mjs';

const mirror = process.argv[2];
if (!mirror) {
  console.error('usage: node scripts/build-config-corpus.mjs MIRROR_DIR (holding owner+name/repo bare git dirs)');
  process.exit(2);
}
const SOURCES = {
  whispers: { repo: 'Skyscanner/whispers', licence: 'Apache-2.0' },
  ripsecrets: { repo: 'sirwart/ripsecrets', licence: 'MIT' },
};
const { files, show, withCommits } = mirrorReader(mirror, SOURCES);

const samples = [];
const lookAlikes = [];
const skipped = {};
const skip = (why) => (skipped[why] = (skipped[why] ?? 0) + 1);

/**
 * whispers' fixtures that test something else than a secret in a value: comments (language.html),
 * paths, its own exclusion and severity settings, and files with no compliant/noncompliant split.
 */
const WHISPERS_OTHER = /(?:^|\/)(?:language\.html|paths\.yml|excluded\.\w+|severity\.yml|ruleslist\.yml|creditcards\.yml|invalid\.json|empty\.dockercfg)$/;
/** A value under a user's or login's name is not a secret (`username: hardcoded`, `DB_USER=hardcoded`). */
const USER_NAME = /(?:user(?:name)?|login)["']?\s*[:=]|DB_USER/i;
const HARDCODED = /[^\s"'<>=:,;()[\]{}`]*hardcoded[^\s"'<>=:,;()[\]{}`]*/gi;

function whispers() {
  const name = 'whispers';
  for (const path of files(name, 'tests/fixtures')) {
    if (WHISPERS_OTHER.test(path)) continue;
    const lines = show(name, path).split('\n');
    let section = 'none';
    lines.forEach((line, index) => {
      if (/non-?compliant/i.test(line)) section = 'noncompliant';
      else if (/compliant/i.test(line)) section = 'compliant';
      // The lines before, back to a blank one or a section's start: where a value's name may be.
      let from = index;
      while (from > 0 && index - from < 4 && lines[from - 1].trim() !== '' && !/compliant/i.test(lines[from - 1])) from--;
      const text = lines.slice(from, index + 1).join('\n');
      if (section === 'compliant') {
        // A compliant line with a value: a look-alike (`passwordForPassenger: "ok2"`, `password = ""`).
        if (/[:=]\s*\S/.test(line) && !/compliant/i.test(line)) lookAlikes.push({ source: name, path, format: `whispers:${path.split('/').at(-1)}`, text: line });
        return;
      }
      for (const match of line.matchAll(HARDCODED)) {
        if (USER_NAME.test(line.slice(0, match.index))) {
          skip('whispers: a user name, not a secret');
          continue;
        }
        // A name, not a value: a key before its `:` or `=`, an XML tag (`<o1_hardcoded_password>`).
        const after = line.slice(match.index + match[0].length);
        if (/^["']?\s*(?::(?!\/\/)|=)|^>/.test(after) || /<\/?$/.test(line.slice(0, match.index)) || match[0].startsWith('/')) {
          skip('whispers: a name, not a value');
          continue;
        }
        // A comment's word (`# hardcoded comment`) is not a value.
        if (/^\s*(?:#|\/\/|<!--)/.test(line)) {
          skip('whispers: a comment');
          continue;
        }
        samples.push({ source: name, path, format: `whispers:${path.split('/').at(-1)}`, name: 'hardcoded', text, secret: match[0], asWritten: true });
      }
    });
  }
}

/**
 * The secret a ripsecrets case holds: a quoted value after `:` or `=`, a URL's password, or else
 * the longest run of token characters.
 */
const secretOf = (text) =>
  /[:=]\s*["'](?<quoted>[^"'\n]{8,})["']/.exec(text)?.groups.quoted ??
  /:\/\/[^\s:/@]*:(?<password>[^\s@/]+)@/.exec(text)?.groups.password ??
  (text.match(/[A-Za-z0-9+/=_.~-]{8,}/g) ?? []).sort((a, b) => b.length - a.length)[0];

function ripsecrets() {
  const name = 'ripsecrets';
  for (const path of files(name, 'test/one_per_line')) {
    for (const line of show(name, path).split('\n')) {
      if (line.trim() === '') continue;
      const secret = secretOf(line);
      if (secret) samples.push({ source: name, path, format: `ripsecrets:${path.split('/').at(-1)}`, name: path.split('/').at(-1), text: line, secret });
      else skip('ripsecrets: no token in line');
    }
  }
  for (const path of files(name, 'test/one_per_file')) {
    const text = show(name, path);
    const secret = secretOf(text);
    if (secret) samples.push({ source: name, path, format: `ripsecrets:${path.split('/').at(-1)}`, name: path.split('/').at(-1), text, secret, asWritten: true });
  }
}

whispers();
ripsecrets();
const sources = withCommits();
const out = join(import.meta.dirname, '../test/fixtures/secrets/config-corpus.json');
writeFileSync(out, `${JSON.stringify({ sources, samples, lookAlikes }, null, 1)}\n`);
console.log(`${samples.length} samples, ${lookAlikes.length} look-alikes, written to ${out}`);
console.log('skipped:', skipped);
