// Refreshes Cove's copy of gitleaks' default rules (config/gitleaks.toml, MIT) from a gitleaks
// checkout: `node scripts/refresh-gitleaks-rules.mjs /path/to/gitleaks [version]`. The TOML is
// turned into JSON here, once, so Cove needs no TOML parser at run time; the Go (RE2) regexes
// stay as gitleaks wrote them and are translated when Cove loads them
// (electron/core/secrets/re2-to-js.ts), so a refresh never hand-edits a rule. That translation
// runs at build time: this script then regenerates rules/gitleaks.generated.json, which
// redaction loads (scripts/generate-secret-rules.mjs).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';

const [checkout, givenVersion] = process.argv.slice(2);
if (!checkout) {
  console.error('usage: node scripts/refresh-gitleaks-rules.mjs /path/to/gitleaks-checkout [version]');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).trim();
const config = parse(readFileSync(join(checkout, 'config/gitleaks.toml'), 'utf8'));
const out = join(import.meta.dirname, '../electron/core/secrets/rules');
const data = {
  source: 'https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml',
  version: givenVersion ?? git('describe', '--tags'),
  commit: git('rev-parse', 'HEAD'),
  license: 'MIT, see LICENSE-gitleaks beside this file',
  allowlist: config.allowlist,
  rules: config.rules,
};
writeFileSync(join(out, 'gitleaks.json'), `${JSON.stringify(data, null, 1)}\n`);
writeFileSync(join(out, 'LICENSE-gitleaks'), readFileSync(join(checkout, 'LICENSE'), 'utf8'));
console.log(`gitleaks ${data.version}: ${data.rules.length} rules written to ${out}`);
execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'generate-secret-rules.mjs')], { stdio: 'inherit' });
