/**
 * The bash grammar: tree-sitter-bash run by web-tree-sitter.
 *
 * Why tree-sitter-bash: it is the grammar Codex and gemini-cli judge commands with, it is
 * maintained with the tree-sitter project and tested against real bash scripts, and it marks
 * what it cannot read with ERROR and MISSING nodes instead of guessing. web-tree-sitter runs it
 * as WebAssembly, so the same two .wasm files serve the CLI and Electron on every platform
 * without a native build (mvdan/sh's wasm build, sh-syntax, is a Go runtime of several MB per
 * process and reads POSIX-leaning syntax where agents write bash).
 *
 * Loading is asynchronous and done once per process. Until it is done, or when it failed, bash
 * calls are asked about with `parserUnavailable()` as the reason; the engine awaits
 * `loadShellParser()` before it decides a call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Tree } from 'web-tree-sitter';

const RUNTIME = 'tree-sitter.wasm';
const GRAMMAR = 'tree-sitter-bash.wasm';

let parser: Parser | null = null;
let failure: string | null = null;
let loading: Promise<void> | null = null;

/** The folders a .wasm file may sit in: beside this module (the dist/ bundles), then node_modules. */
function locate(file: string, packageName: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, file), join(here, '..', file)];
  // The packaged app keeps unpacked copies beside app.asar (build/electron-builder.yml asarUnpack).
  if (here.includes('app.asar')) candidates.unshift(join(here.replace('app.asar', 'app.asar.unpacked'), file));
  const require = createRequire(import.meta.url);
  for (const request of [`${packageName}/${file}`, `${packageName}/package.json`]) {
    try {
      candidates.push(join(dirname(require.resolve(request)), file));
      break;
    } catch {
      // Not exported under that name, or not installed beside the sources: the bundled copies serve.
    }
  }
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${file} is in none of ${candidates.join(', ')}`);
  return found;
}

async function load(): Promise<void> {
  try {
    await Parser.init({ wasmBinary: readFileSync(locate(RUNTIME, 'web-tree-sitter')) } as object);
    const language = await Language.load(readFileSync(locate(GRAMMAR, 'tree-sitter-bash')));
    const created = new Parser();
    created.setLanguage(language);
    parser = created;
  } catch (error) {
    failure = (error as Error).message;
  }
}

/** Starts loading the grammar (once); resolves when it is loaded or has failed, never rejects. */
export function loadShellParser(): Promise<void> {
  loading ??= load();
  return loading;
}

/** Why bash commands cannot be read now, or null when the parser is ready. */
export function parserUnavailable(): string | null {
  if (parser) return null;
  if (failure) return `the bash parser failed to load (${failure}), so no bash command can be read`;
  return 'the bash parser is still loading, so no bash command can be read yet';
}

/** Longer than this and the command is not read: a person can look at it instead. */
const PARSE_BUDGET_MS = 1000;

/**
 * The syntax tree of a command; null when the parser is not ready (see `parserUnavailable`),
 * 'too slow' when reading it took longer than the budget (pathological input).
 */
export function parseTree(source: string): Tree | 'too slow' | null {
  if (!parser) return null;
  const deadline = Date.now() + PARSE_BUDGET_MS;
  const tree = parser.parse(source, null, { progressCallback: () => Date.now() > deadline });
  if (!tree) {
    parser.reset();
    return 'too slow';
  }
  return tree;
}
