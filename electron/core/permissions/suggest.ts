/**
 * The rule a prompt offers to save: the narrowest one that covers the whole call. For bash that
 * is the exact command, compound or not (never one rule per part), unless the command holds a
 * `*`, which would turn the rule into a glob broader than what was shown: then none is offered
 * and the person writes one if they want. A simple command also gets a prefix alternative
 * (`bash(git log:*)`) the person may choose or edit, never applied unless they do. For file
 * tools, the exact path; for MCP tools, the tool.
 */
import { isFileEdit, isMcpTool, ruleSpecifier } from './rule-syntax';
import type { ShellAnalysis } from './shell-analysis';
import type { CallPath, CallTool } from './tool-paths';
import { hostOfUrl } from '../web-fetch/host-rule';

export interface Suggestion {
  rule: string | null;
  /** A broader prefix the person may pick instead. */
  alternative: string | null;
}

/** Commands whose second word is a subcommand (`git log`), so the prefix keeps it. */
const WITH_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'cargo',
  'go',
  'uv',
  'pip',
  'pip3',
  'poetry',
  'docker',
  'kubectl',
  'gh',
  'dotnet',
  'gradle',
  'mvn',
  'terraform',
  'brew',
  'make',
  'rustup',
  'swift',
  'composer',
  'bundle',
  'rails',
  'mix',
]);
/** Runners whose third word names what runs (`npm run build`). */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

export function suggestBash(analysis: ShellAnalysis, escapes: readonly string[]): Suggestion {
  // A rule must be one a person can paste: no newline, NUL or other control character.
  if (analysis.parseError !== null || analysis.normalized === '' || /[\x00-\x1f\x7f]/.test(analysis.normalized)) return { rule: null, alternative: null };
  // A `*` would make the rule a glob, broader than the command shown; the person may write one.
  const rule = analysis.normalized.includes('*') ? null : `bash(${analysis.normalized})`;
  const [part, ...others] = analysis.parts;
  if (!part || others.length > 0 || analysis.unreadable.length > 0 || escapes.length > 0 || part.words.length !== part.argv.length) {
    return { rule, alternative: null };
  }
  const prefix = [part.argv[0]!];
  const second = part.argv[1];
  if (second !== undefined && WITH_SUBCOMMANDS.has(part.argv[0]!) && SUBCOMMAND.test(second)) {
    prefix.push(second);
    const third = part.argv[2];
    if (SCRIPT_RUNNERS.has(prefix[0]!) && (second === 'run' || second === 'exec') && third !== undefined && /^[\w:.-]+$/.test(third)) {
      prefix.push(third.split(':')[0]!);
    }
  }
  if (!prefix.every((word) => PLAIN_WORD.test(word))) return { rule, alternative: null };
  return { rule, alternative: `bash(${prefix.join(' ')}:*)` };
}

/** gitignore-special characters in a literal path. */
function escapeGlob(path: string): string {
  return path
    .replace(/[\\*?[\]]/g, '\\$&')
    .replace(/^([!#])/, '\\$1')
    .replace(/ $/, '\\ ');
}

export function suggestForTool(toolName: string, call: CallTool, paths: readonly CallPath[] | null): Suggestion {
  if (isMcpTool(toolName)) return { rule: toolName, alternative: `mcp__${toolName.split('__')[1]}` };
  const kind = ruleSpecifier(toolName, call.tool);
  const permission = call.tool?.permission;
  if (kind === 'url' && permission && typeof permission === 'object' && 'url' in permission) {
    const host = hostOfUrl(permission.url(call.args));
    return { rule: host ? `${toolName}(domain:${host})` : null, alternative: null };
  }
  if (kind !== 'paths') return { rule: toolName, alternative: null };
  const unique = [...new Set((paths ?? []).map((path) => path.real))];
  if (unique.length !== 1) return { rule: null, alternative: null };
  const path = paths!.find((candidate) => candidate.real === unique[0])!;
  const specifier = path.relative === null ? `/${escapeGlob(path.real)}` : path.relative === '.' ? null : escapeGlob(path.relative);
  if (specifier === null) return { rule: null, alternative: null };
  const rule = `${toolName}(${specifier})`;
  // A folder-wide edit rule is a common next step; it is offered, never applied by itself.
  const folder = path.relative?.includes('/') ? path.relative.slice(0, path.relative.lastIndexOf('/')) : null;
  const alternative = isFileEdit(call.tool) && folder ? `${toolName}(${escapeGlob(folder)}/**)` : null;
  return { rule, alternative };
}
