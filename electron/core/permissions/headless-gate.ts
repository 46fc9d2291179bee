/**
 * The names `cove run` has imported from here since before the permission engine existed, and a
 * headless gate that is now the full engine (SPEC §6) without settings files or a store. Hosts
 * should build a `PermissionEngine` per session instead (see ./index).
 */
import type { ToolMiddleware } from '../agent/types';
import { PermissionEngine } from './engine';
import type { PermissionMode } from './rule-syntax';

export { PERMISSION_MODES, parseRule } from './rule-syntax';
export type { ParsedRule, PermissionMode } from './rule-syntax';

export interface PermissionFlags {
  mode: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
}

/** Denies what would need a person, with the reason and the rule that would allow it. */
export function headlessGate(flags: PermissionFlags): ToolMiddleware {
  const engine = new PermissionEngine({
    mode: flags.mode,
    workspaceRoots: [],
    extraRules: { allow: flags.allow, ask: flags.ask, deny: flags.deny },
  });
  return engine.middleware();
}
