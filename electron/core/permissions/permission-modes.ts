/**
 * The permission modes (SPEC §6), apart from the rule language: `cove` checks a
 * --permission-mode flag with this alone, without loading every tool's declaration.
 */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypass'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}
