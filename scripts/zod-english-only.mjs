// An esbuild plugin for the `cove` bundle: zod's index re-exports every one of its ~50 locales
// (`export * as locales`), and esbuild keeps them all because `z` is used as a namespace, so
// every `cove` start parsed 368 KB of error messages in languages Cove never selects (it never
// calls `z.config(z.locales.…())`; zod's own English default comes from `locales/en.js`, which
// zod imports directly and this keeps). The plugin gives zod a locales index holding English only.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    const english = require.resolve('zod/v4/locales/en.js');
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales-english-only', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(english)};`,
      loader: 'js',
      resolveDir: dirname(english),
    }));
  },
};
