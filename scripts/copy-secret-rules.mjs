// Redaction reads gitleaks' generated rules from beside its own module
// (electron/core/secrets/gitleaks-generated.ts reads rules/gitleaks.generated.json with fs, since
// JSON.parse is several times cheaper than the same data parsed as a bundle's JS literal): a
// bundle that holds that module needs the file in `rules/` beside it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = join(import.meta.dirname, '../electron/core/secrets/rules/gitleaks.generated.json');

export function copySecretRules(outdir) {
  mkdirSync(join(outdir, 'rules'), { recursive: true });
  copyFileSync(SOURCE, join(outdir, 'rules', 'gitleaks.generated.json'));
}
