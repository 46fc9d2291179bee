// `npm run lint`: typescript-eslint's recommended rules plus ARCHITECTURE.md's import layers.
// The layers live here rather than in a script of our own so that imports are resolved by the
// TypeScript resolver (not a regular expression) and an editor shows a violation as it is typed;
// scripts/check-layers.mjs runs only the rules marked as layer rules below.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const projects = ['shared', 'electron', 'electron/desktop', 'renderer', 'test'].map((project) => `${project}/tsconfig.json`);
const electron = {
  paths: [{ name: 'electron', message: 'only the desktop host and preload import electron' }],
  patterns: [{ group: ['electron/*'], message: 'only the desktop host and preload import electron' }],
};

// Each zone forbids files under `target` to import files under `from` (paths from the repository root).
const zones = [
  { target: './shared', from: '.', except: ['./shared', './node_modules'], message: 'shared imports nothing of ours outside shared/' },
  {
    target: './electron/core',
    from: ['./electron/desktop', './electron/web', './electron/cli', './electron/preload', './renderer'],
    message: 'the core never imports a host or the renderer',
  },
  {
    target: ['./electron/cli', './electron/web'],
    from: ['./renderer', './electron/desktop', './electron/preload'],
    message: 'the CLI and web host must not import the renderer or the desktop host',
  },
  {
    target: './electron/core/agent',
    from: ['./electron/core/permissions', './electron/core/store', './electron/core/mcp'],
    message: 'the agent loop knows nothing of permissions, the store or MCP: they reach it through the interfaces in agent/types.ts',
  },
  { target: './renderer', from: '.', except: ['./renderer', './shared', './node_modules'], message: 'the renderer imports only renderer/ and shared/' },
  { target: './renderer/ui', from: './renderer/store', message: 'ui/ components take what they show as props; only features/ read the store' },
];

export const layerRules = ['import-x/no-restricted-paths', 'import-x/no-cycle', 'import-x/no-nodejs-modules', 'no-restricted-imports', '@typescript-eslint/no-restricted-imports'];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', '.bench/', 'test/fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only the extensions named here when it follows an import to look for a cycle.
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: projects, noWarnOnMultipleProjects: true })],
    },
    rules: {
      // Terminal cleaning, shell parsing and redaction match control characters on purpose.
      'no-control-regex': 'off',
      // A leading underscore marks a parameter kept for its position, and a rest sibling drops a field from a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      // Type-only imports are erased at build time, so only value imports can form a cycle.
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['shared/**'],
    rules: { 'import-x/no-nodejs-modules': 'error', 'no-restricted-imports': ['error', electron] },
  },
  {
    files: ['electron/core/**', 'electron/cli/**', 'electron/web/**'],
    rules: { 'no-restricted-imports': ['error', electron] },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'import-x/no-nodejs-modules': 'error',
      'no-restricted-imports': ['error', electron],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/shared/*'], allowTypeImports: true, message: 'the renderer imports only types from shared/: ARCHITECTURE.md allows only the contract types in the page' }],
        },
      ],
    },
  },
);
