/**
 * Compiled rules and how each kind applies to a call. Path rules are gitignore-style globs
 * relative to whichever workspace root holds the path, `//abs/path` from the filesystem root and
 * `~/path` from the home folder. They match where a path really leads; deny and ask rules also
 * match the path as written, so a link cannot dodge a rule by its name or its target.
 */
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { isAbsolute, relative, sep } from 'node:path';
import { matchesOptionsLoosely, matchesWords, parseBashPattern, type BashPattern } from './bash-pattern';
import { isMcpTool, parseRule, ruleSpecifier } from './rule-syntax';
import type { CommandPart } from './shell-analysis';
import { commandName } from './shell-wrappers';
import type { CallPath, CallTool } from './tool-paths';
import { hostOfUrl, parseHostSpecifier, type HostPattern } from '../web-fetch/host-rule';
import { knownTool } from '../tools/registry';

export type RuleList = 'allow' | 'ask' | 'deny';

export interface CompiledRule {
  text: string;
  tool: string;
  list: RuleList;
  /** Where the rule came from: a settings file's path, 'command line', 'this session'. */
  source: string;
  bash: BashPattern | null;
  path: PathPattern | null;
  /** subagent(name) and skill(name): a glob over the name the tool reports for the call. */
  name: ((value: string) => boolean) | null;
  /** web_fetch(domain:…): the host of the URL the tool reports for the call. */
  host: HostPattern | null;
}

interface PathPattern {
  /** null: relative to each workspace root. */
  base: string | null;
  matcher: Ignore;
  /** The pattern covers its base folder itself (`**`, `~`). */
  coversBase: boolean;
}

/** Throws an Error naming the rule when it is invalid. */
export function compileRule(text: string, list: RuleList, source: string, home: string): CompiledRule {
  const parsed = parseRule(text);
  const rule: CompiledRule = { text: parsed.text, tool: parsed.tool, list, source, bash: null, path: null, name: null, host: null };
  const specifier = parsed.specifier;
  if (specifier === null) return rule;
  const kind = ruleSpecifier(parsed.tool);
  if (kind === 'command') rule.bash = parseBashPattern(specifier);
  else if (kind === 'paths') rule.path = pathPattern(specifier.trim(), home);
  else if (kind === 'url') rule.host = parseHostSpecifier(specifier);
  else rule.name = picomatch(specifier.trim());
  return rule;
}

function pathPattern(specifier: string, home: string): PathPattern {
  let base: string | null = null;
  let pattern = specifier;
  if (specifier.startsWith('//')) {
    base = '/';
    pattern = `/${specifier.slice(2)}`;
  } else if (specifier === '~' || specifier.startsWith('~/')) {
    base = home;
    pattern = specifier === '~' ? '/**' : `/${specifier.slice(2)}`;
  } else if (specifier.startsWith('./')) {
    pattern = specifier.slice(2);
  }
  const coversBase = ['/**', '**', '/', '/.', '.'].includes(pattern);
  return { base, matcher: ignore().add(pattern), coversBase };
}

/** Whether the rule names this tool (mcp__server covers all of that server's tools). */
export function namesTool(rule: CompiledRule, toolName: string): boolean {
  if (rule.tool === toolName) return true;
  if (!isMcpTool(rule.tool) || !isMcpTool(toolName)) return false;
  const server = rule.tool.endsWith('__*') ? rule.tool.slice(0, -3) : rule.tool;
  return !server.slice('mcp__'.length).includes('__') && toolName.startsWith(`${server}__`);
}

function matchesFrom(pattern: PathPattern, base: string, path: string): boolean {
  const fromBase = relative(base, path);
  if (fromBase === '') return pattern.coversBase;
  if (fromBase.startsWith('..') || isAbsolute(fromBase)) return false;
  return pattern.matcher.ignores(fromBase.split(sep).join('/'));
}

function pathMatches(pattern: PathPattern, path: string, roots: readonly string[]): boolean {
  if (pattern.base !== null) return matchesFrom(pattern, pattern.base, path);
  return roots.some((root) => matchesFrom(pattern, root, path));
}

/**
 * Whether a non-bash rule covers the call. Deny and ask rules match when any path matches, as
 * written or as resolved; allow rules only when every path's real location does.
 */
export function matchesCall(rule: CompiledRule, call: CallTool, paths: readonly CallPath[] | null, roots: readonly string[]): boolean {
  if (rule.path) {
    if (!paths || paths.length === 0) return false;
    const test = (path: string) => pathMatches(rule.path!, path, roots);
    if (rule.list === 'allow') return paths.every((path) => test(path.real));
    return paths.some((path) => test(path.real) || test(path.lexical));
  }
  const permission = (call.tool ?? knownTool(rule.tool))?.permission;
  if (rule.host) {
    const host = permission && typeof permission === 'object' && 'url' in permission ? hostOfUrl(asked(() => permission.url(call.args))) : null;
    return host !== null && rule.host.matches(host);
  }
  if (rule.name) {
    const name = permission && typeof permission === 'object' && 'name' in permission ? asked(() => permission.name(call.args)) : undefined;
    return typeof name === 'string' && rule.name(name);
  }
  return rule.bash === null;
}

/** What a tool reports of arguments that do not fit it (a middleware's rewrite) is nothing. */
function asked<T>(question: () => T): T | undefined {
  try {
    return question();
  } catch {
    return undefined;
  }
}

/**
 * Whether a bash rule with a specifier covers one simple command. Deny and ask rules look at
 * every form of it (with and without assignments and wrappers, `/bin/rm` as `rm`); an allow
 * prefix or glob only at the command that really runs, so `bash(timeout:*)` cannot allow
 * `timeout 1 rm x`, while an exact allow rule may also name the wrappers.
 */
export function matchesPart(pattern: BashPattern, part: CommandPart, list: RuleList): boolean {
  if (list === 'allow') {
    return matchesWords(pattern, part.words) || (pattern.kind === 'exact' && matchesWords(pattern, part.written));
  }
  const bare = part.argv.length > 0 ? [commandName(part.argv[0]!), ...part.argv.slice(1)] : [];
  const writtenBare = part.written.length > 0 ? [commandName(part.written[0]!), ...part.written.slice(1)] : [];
  return [part.words, part.argv, part.written, bare, writtenBare, ...part.denyForms].some((words) => matchesWords(pattern, words) || matchesOptionsLoosely(pattern, words));
}
