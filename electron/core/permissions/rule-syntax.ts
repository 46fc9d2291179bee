/**
 * Permission modes and the rule language (SPEC §6): `Tool` or `Tool(specifier)`. A rule that
 * names an unknown tool, has unbalanced parentheses or a specifier its tool cannot use is
 * refused with a message that quotes it, so a mistyped rule is never silently ignored. Which
 * tools exist, and how each reads a specifier, is asked of the tools' own declarations.
 */
import { parseBashPattern } from './bash-pattern';
import { parseHostSpecifier } from '../web-fetch/host-rule';
import { specifierKind, type ToolFacts } from '../tools/define-tool';
import { knownTool, knownToolNames } from '../tools/registry';

export { PERMISSION_MODES, isPermissionMode, type PermissionMode } from './permission-modes';

/** How a rule's specifier reads for a tool, from the tool's declaration; MCP tools take none. */
export function ruleSpecifier(toolName: string, tool: Pick<ToolFacts, 'permission'> | undefined = knownTool(toolName)): ReturnType<typeof specifierKind> {
  return isMcpTool(toolName) ? 'none' : specifierKind(tool);
}

/** A file edit that acceptEdits lets through inside the workspace: a tool of kind `edit` that names its paths. */
export function isFileEdit(tool: Pick<ToolFacts, 'kind' | 'permission'> | undefined): boolean {
  return tool?.kind === 'edit' && specifierKind(tool) === 'paths';
}

/** Claude Code's names, for a hint when one is used in a Cove rule. */
const CLAUDE_HINTS: Record<string, string> = {
  Bash: 'bash',
  Read: 'read_file',
  Edit: 'edit_file',
  Write: 'write_file',
  Glob: 'list_files',
  Grep: 'search',
  Task: 'subagent',
  WebFetch: 'web_fetch',
  TodoWrite: 'todo_write',
};

export interface ParsedRule {
  tool: string;
  specifier: string | null;
  /** The rule as given, trimmed. */
  text: string;
}

export function isMcpTool(name: string): boolean {
  return /^mcp__[^_]/.test(name);
}

/** `Tool` or `Tool(specifier)`; throws an Error whose message quotes the rule and says what is wrong. */
export function parseRule(text: string): ParsedRule {
  const trimmed = text.trim();
  const fail = (why: string): never => {
    throw new Error(`invalid permission rule '${trimmed}': ${why}`);
  };
  if (trimmed === '') fail('the rule is empty');
  const open = trimmed.indexOf('(');
  const tool = open < 0 ? trimmed : trimmed.slice(0, open);
  if (open >= 0 && !trimmed.endsWith(')')) fail('unbalanced parentheses (a specifier must end with ")")');
  const specifier = open < 0 ? null : trimmed.slice(open + 1, -1);
  if (!/^[A-Za-z0-9_*.-]+$/.test(tool)) fail('expected Tool or Tool(specifier)');
  checkTool(tool, fail);
  if (specifier !== null) {
    if (!balanced(specifier)) fail('unbalanced parentheses');
    if (specifier.trim() === '') fail('empty specifier; write the tool name alone to cover every call');
    if (isMcpTool(tool)) fail('MCP rules take no specifier; name the tool (mcp__server__tool) or the server (mcp__server)');
    const kind = ruleSpecifier(tool);
    if (kind === 'none') fail(`${tool} takes no specifier; write ${tool} alone`);
    try {
      if (kind === 'url') parseHostSpecifier(specifier);
      if (kind === 'command') parseBashPattern(specifier);
    } catch (error) {
      fail((error as Error).message);
    }
  }
  return { tool, specifier, text: trimmed };
}

function checkTool(tool: string, fail: (why: string) => never): void {
  if (!tool.startsWith('mcp__') && knownTool(tool)) return;
  if (tool.startsWith('mcp__')) {
    const [server, ...rest] = tool.slice('mcp__'.length).split('__');
    if (!server || /\*/.test(server) || rest.some((part) => part === '') || rest.length > 1) {
      fail('MCP rules are mcp__server or mcp__server__tool');
    }
    return;
  }
  const names = knownToolNames().sort();
  const hint = CLAUDE_HINTS[tool] ?? names.find((name) => name.toLowerCase() === tool.toLowerCase());
  fail(`unknown tool '${tool}'${hint ? ` (did you mean ${hint}?)` : ''}; Cove's tools are ${names.join(', ')} and mcp__<server>__<tool>`);
}

/** Parentheses outside quotes must pair up. */
function balanced(specifier: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let index = 0; index < specifier.length; index++) {
    const char = specifier[index]!;
    if (quote) {
      if (char === '\\' && quote === '"') index++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '\\') index++;
    else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}
