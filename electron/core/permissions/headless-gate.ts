/**
 * The permission gate for headless runs until the full permission engine (SPEC §6) replaces it.
 * It errs only towards denying: a tool that is not readOnly runs only in `bypass` mode or when
 * an allow rule names the whole tool, and any deny rule that mentions a tool denies all of its
 * calls, because specifiers (`bash(rm:*)`) are not matched yet and must not let a call through.
 */
import type { ToolMiddleware } from '../agent/types';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypass'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionFlags {
  mode: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface ParsedRule {
  tool: string;
  specifier: string | null;
  text: string;
}

/** `Tool` or `Tool(specifier)`; throws with the rule in the message when it is malformed. */
export function parseRule(text: string): ParsedRule {
  const match = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s.exec(text.trim());
  if (!match) throw new Error(`invalid permission rule '${text}': expected Tool or Tool(specifier)`);
  const specifier = match[2] ?? null;
  let depth = 0;
  for (const char of specifier ?? '') {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth !== 0) throw new Error(`invalid permission rule '${text}': unbalanced parentheses`);
  if (specifier !== null && specifier.trim() === '') throw new Error(`invalid permission rule '${text}': empty specifier`);
  return { tool: match[1]!, specifier, text: text.trim() };
}

const FILE_EDIT_TOOLS = new Set(['write_file', 'edit_file', 'hashline_edit']);

export function headlessGate(flags: PermissionFlags): ToolMiddleware {
  const deny = flags.deny.map(parseRule);
  const ask = flags.ask.map(parseRule);
  const allow = flags.allow.map(parseRule);
  return {
    name: 'headless-permissions',
    beforeTool(call) {
      const denied = deny.find((rule) => rule.tool === call.toolName);
      if (denied) return { action: 'deny', reason: `the deny rule ${denied.text} forbids ${call.toolName}` };
      if (call.sensitivity === 'readOnly') return { action: 'allow' };
      if (flags.mode === 'plan') {
        return { action: 'deny', reason: `${call.toolName} changes things and the session is in plan mode; describe the change instead of making it` };
      }
      if (flags.mode === 'bypass') return { action: 'allow' };
      const asked = ask.find((rule) => rule.tool === call.toolName);
      if (!asked) {
        if (allow.some((rule) => rule.tool === call.toolName && rule.specifier === null)) return { action: 'allow' };
        if (flags.mode === 'acceptEdits' && FILE_EDIT_TOOLS.has(call.toolName)) return { action: 'allow' };
      }
      const why = asked ? `the ask rule ${asked.text} requires approval` : `${call.toolName} needs approval`;
      return {
        action: 'deny',
        reason: `${why} and cove run has no one to ask; rerun with --allow ${call.toolName} (or --permission-mode bypass) to allow it`,
      };
    },
  };
}
