// Refreshes Cove's copy of MongoDB Kingfisher's rules (data/rules/*.yml, Apache-2.0) from a
// Kingfisher checkout or bare git mirror: `node scripts/refresh-kingfisher-rules.mjs DIR`.
// Only what redaction needs is kept (id, name, pattern, min_entropy and the examples the tests
// check); validation requests, references and helper rules (`visible: false`: a client id that
// is no secret by itself) are left out. The Rust regexes stay as Kingfisher wrote them and are
// translated at build time, as is Kingfisher's safe list of placeholders (src/safe_list.rs), (electron/core/secrets/kingfisher-plan.ts); this script then
// regenerates rules/gitleaks.generated.json, which redaction loads.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

const [checkout] = process.argv.slice(2);
if (!checkout) {
  console.error('usage: node scripts/refresh-kingfisher-rules.mjs /path/to/kingfisher (a checkout or a bare git mirror)');
  process.exit(2);
}
// Read through git so a bare mirror serves as well as a checkout: the rules of HEAD.
const git = (...args) => execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const commit = git('rev-parse', 'HEAD').trim();
const paths = git('ls-tree', '-r', '--name-only', 'HEAD', 'data/rules')
  .split('\n')
  .filter((path) => /\.ya?ml$/.test(path))
  .sort();
if (paths.length === 0) {
  console.error(`${checkout} has no data/rules/*.yml at HEAD: is it a Kingfisher checkout?`);
  process.exit(1);
}
const rules = [];
let hidden = 0;
for (const path of paths) {
  const loaded = yaml.load(git('show', `HEAD:${path}`));
  for (const rule of loaded?.rules ?? []) {
    if (typeof rule.id !== 'string' || typeof rule.pattern !== 'string') {
      console.error(`${path}: a rule without an id or a pattern (${JSON.stringify(rule.id ?? rule.name)})`);
      process.exit(1);
    }
    if (rule.visible === false) {
      hidden++;
      continue;
    }
    rules.push({
      id: rule.id,
      name: rule.name,
      pattern: rule.pattern,
      ...(typeof rule.min_entropy === 'number' ? { min_entropy: rule.min_entropy } : {}),
      examples: rule.examples ?? [],
      ...(rule.negative_examples?.length ? { negative_examples: rule.negative_examples } : {}),
    });
  }
}
// Kingfisher excuses a secret its safe list matches (src/safe_list.rs: `EXAMPLEKEY`, `hunter2`,
// `${VAR}`, `abcdefghij`…); that list is code, not data, so its raw-string regexes are read out.
const safeListSource = git('show', 'HEAD:src/safe_list.rs');
const safeList = [...safeListSource.matchAll(/compile_regex\(\s*r"((?:[^"]|"(?!\s*,?\s*\)))*)"\s*,?\s*\)/g)].map((match) => match[1]);
if (safeList.length < 5) {
  console.error(`src/safe_list.rs: found ${safeList.length} safe-list regexes, expected a dozen or more (has its form changed?)`);
  process.exit(1);
}
const out = join(import.meta.dirname, '../electron/core/secrets/rules');
const data = {
  source: 'https://github.com/mongodb/kingfisher/tree/main/data/rules',
  repo: 'mongodb/kingfisher',
  commit,
  license: 'Apache-2.0, see LICENSE-kingfisher beside this file',
  safe_list: safeList,
  rules,
};
writeFileSync(join(out, 'kingfisher.json'), `${JSON.stringify(data, null, 1)}\n`);
writeFileSync(join(out, 'LICENSE-kingfisher'), git('show', 'HEAD:LICENSE'));
console.log(`kingfisher ${commit.slice(0, 12)}: ${rules.length} rules written to ${out} (${hidden} helper rules left out), ${safeList.length} safe-list regexes`);
execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'generate-secret-rules.mjs')], { stdio: 'inherit' });
