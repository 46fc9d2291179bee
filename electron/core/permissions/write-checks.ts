/**
 * What the writes of a bash command come to (SPEC §6): a write is allowed only where a write to
 * that path would be — inside the workspace under acceptEdits, or where an edit_file/write_file
 * allow rule covers it; protected files only with an allow rule naming them. A command that writes
 * a file and then runs it (`echo … > x.sh && bash x.sh`, a package.json edit then `npm test`) asks
 * in every mode short of bypass: the write is the command.
 *
 * Across calls, a write to package.json or a Makefile under acceptEdits is an ordinary edit (the
 * change is in the workspace, where the person reviews code), so the next `npm test` is not held
 * back; the files that change what runs without showing up as code are the protected ones.
 */
import { dirname, resolve } from 'node:path';
import { knownTool } from '../tools/registry';
import { matchesCall, type CompiledRule } from './rule-match';
import { isFileEdit, type PermissionMode } from './rule-syntax';
import type { CommandPart } from './shell-analysis';
import { realPath, type JudgedWrite } from './shell-paths';
import { commandName } from './shell-wrappers';
import { locate } from './tool-paths';

/** A file-edit rule (edit_file, write_file, hashline_edit…) of `list` with a path that covers every path of the write. */
export function pathRuleFor(write: JudgedWrite, rules: readonly CompiledRule[], roots: readonly string[]): CompiledRule | null {
  if (write.paths.length === 0) return null;
  const located = write.paths.map((path) => ({ ...locate(path.real, roots), lexical: path.lexical }));
  return rules.find((rule) => rule.path !== null && isFileEdit(knownTool(rule.tool)) && matchesCall(rule, { args: {}, tool: undefined }, located, roots)) ?? null;
}

/** "sed -i writes the protected .npmrc", naming the word too when it reads differently. */
export function protectedWriteText(write: JudgedWrite): string {
  const named = write.shown.replace(/^`|`$/g, '').replace(/^\.\//, '') === write.protects;
  return `${write.by} writes the protected ${write.protects}${named ? '' : ` (through ${write.shown})`}, which decides what runs next`;
}

export interface WriteVerdict {
  /** Reasons to ask. */
  reasons: string[];
  /** Protected writes no rule names: denied in bypass. */
  protectedWrites: JudgedWrite[];
}

export function checkWrites(
  writes: readonly JudgedWrite[],
  context: { mode: PermissionMode; roots: readonly string[]; allowRules: readonly CompiledRule[]; allowsEverything: boolean },
): WriteVerdict {
  const verdict: WriteVerdict = { reasons: [], protectedWrites: [] };
  for (const write of writes) {
    if (write.unknown) {
      verdict.reasons.push(`${write.by} writes a path Cove cannot tell: ${write.unknown}`);
      continue;
    }
    const rule = pathRuleFor(write, context.allowRules, context.roots);
    if (write.protects) {
      if (!rule) {
        verdict.protectedWrites.push(write);
        verdict.reasons.push(`${protectedWriteText(write)}; only an allow rule naming it lets that run`);
      }
      continue;
    }
    if (rule || !write.inside) continue;
    if (context.mode !== 'acceptEdits' && !context.allowsEverything) {
      verdict.reasons.push(`${write.by} writes ${write.shown}, and writes ask outside acceptEdits mode`);
    }
  }
  return verdict;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'source', '.', 'python', 'python3', 'node', 'perl', 'ruby', 'php', 'deno', 'bun', 'tsx', 'ts-node']);
/** Files a program reads to decide what it runs. */
const RUNNER_FILES: Record<string, string[]> = {
  npm: ['package.json', '.npmrc'],
  pnpm: ['package.json', '.npmrc'],
  yarn: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml'],
  bun: ['package.json', 'bunfig.toml'],
  npx: ['package.json'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  git: ['.git/config', '.gitattributes'],
  cargo: ['Cargo.toml', 'build.rs'],
  just: ['justfile', 'Justfile'],
  tox: ['tox.ini'],
  pytest: ['conftest.py', 'pytest.ini', 'pyproject.toml'],
};

/** The parts that run a file the command also writes. */
export function writeThenRun(writes: readonly JudgedWrite[], parts: readonly CommandPart[], roots: readonly string[]): string[] {
  const written = writes.flatMap((write) => write.paths.map((path) => ({ path: path.real, write })));
  if (written.length === 0 || roots.length === 0) return [];
  const cwd = realPath(roots[0]!) ?? roots[0]!;
  const at = (text: string) => realPath(resolve(cwd, text)) ?? resolve(cwd, text);
  const reasons: string[] = [];
  for (const part of parts) {
    const program = commandName(part.argv[0] ?? '');
    const runs: string[] = [];
    if (part.argv[0]?.includes('/')) runs.push(at(part.argv[0]));
    if (SHELLS.has(program))
      runs.push(
        ...part.argv
          .slice(1)
          .filter((value) => !value.startsWith('-'))
          .map(at),
      );
    for (const file of RUNNER_FILES[program] ?? []) runs.push(at(file));
    const hit = written.find((entry) => runs.some((run) => run === entry.path || dirname(run) === entry.path));
    if (hit) reasons.push(`${hit.write.by} writes ${hit.write.shown}, and \`${part.argv.join(' ')}\` then runs what it holds`);
  }
  return [...new Set(reasons)];
}
