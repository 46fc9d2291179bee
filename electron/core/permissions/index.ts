/** The permission engine (SPEC §6): rules, modes, shell analysis, settings files and the audit. */
export { PermissionEngine, headlessReason } from './engine';
export type {
  AuditEntry,
  Decision,
  PermissionAnswer,
  PermissionAnswered,
  PermissionAsk,
  PermissionCall,
  PermissionEngineOptions,
  PermissionOutcome,
} from './engine';
export { PERMISSION_MODES, BUILTIN_TOOLS, isPermissionMode, parseRule } from './rule-syntax';
export type { ParsedRule, PermissionMode } from './rule-syntax';
export {
  defaultCoveHome,
  loadPermissionSettings,
  localSettingsPath,
  PermissionSettingsError,
  saveAlwaysRule,
} from './settings';
export type { LoadedSettings, RuleLists, SettingsSource } from './settings';
export { analyzeCommand } from './shell-analysis';
export type { CommandPart, ShellAnalysis } from './shell-analysis';
