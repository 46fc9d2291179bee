// Checks ARCHITECTURE.md's import layers alone, faster than the whole `npm run lint`: it runs
// ESLint with only the rules eslint.config.mjs names as layer rules (restricted paths between
// folders, no Node or Electron where they do not belong, no import cycles).
const { ESLint, layerRules } = await Promise.all([import('eslint'), import('../eslint.config.mjs')]).then(
  ([eslint, config]) => ({ ESLint: eslint.ESLint, layerRules: config.layerRules }),
  (error) => {
    process.stderr.write(`the import-layer check runs ESLint, which did not load (${error.message}): run \`npm install\`\n`);
    process.exit(1);
  },
);

const eslint = new ESLint({ ruleFilter: ({ ruleId }) => layerRules.includes(ruleId) });
const results = await eslint.lintFiles(['shared', 'electron', 'renderer']);
const problems = results.flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line}: ${message.message} (${message.ruleId ?? 'parse error'})`));
if (problems.length > 0) {
  process.stderr.write(problems.join('\n') + '\n');
  process.exit(1);
}
process.stdout.write('import layers ok\n');
