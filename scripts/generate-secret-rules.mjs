// Writes electron/core/secrets/rules/gitleaks.generated.json: gitleaks' rules translated to
// JavaScript and the default keyword automaton, worked out once here instead of at every start
// of redaction (electron/core/secrets/generate-rules.ts says what it holds). Run after changing
// the vendored rules (scripts/refresh-gitleaks-rules.mjs runs it), Cove's patterns' hints, or
// the code that works the rules out: `node --import tsx scripts/generate-secret-rules.mjs`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { GENERATED_RULES_PATH, generatedRulesText } = await import('../electron/core/secrets/generate-rules.ts').catch((error) => {
  console.error(`${error.message}\n(this script reads TypeScript: run it as \`node --import tsx scripts/generate-secret-rules.mjs\`)`);
  process.exit(1);
});
const path = join(import.meta.dirname, '..', GENERATED_RULES_PATH);
writeFileSync(path, generatedRulesText());
console.log(`wrote ${GENERATED_RULES_PATH}`);
