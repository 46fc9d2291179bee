/** The permission engine (SPEC §6): rules, modes, shell analysis, settings files and the audit. */
export { PermissionEngine } from './engine';
export { headlessReason } from './engine-types';
export type { AuditEntry, PermissionAnswer, PermissionAnswered, PermissionAsk, PermissionEngineOptions, PermissionOutcome } from './engine-types';
export type { Decision, PermissionCall } from './decide';
export { PERMISSION_MODES, isPermissionMode, parseRule } from './rule-syntax';
export type { ParsedRule, PermissionMode } from './rule-syntax';
export { defaultCoveHome, loadPermissionSettings, localSettingsPath, PermissionSettingsError, saveAlwaysRule } from './settings';
export type { LoadedSettings, RuleLists, SettingsSource } from './settings';
export { createSessionGate, type SessionGateOptions } from './session-gate';
export { createRuleProvider } from './rule-provider';
export { analyzeCommand } from './shell-analysis';
export type { CommandPart, ShellAnalysis } from './shell-analysis';
