/** Hooks (SPEC §14) and the approval of what a project brings that runs commands. */
export { HOOK_EVENTS, HookConfigError, loadHooks, type HookEntry, type HookEventName } from './hook-config';
export { runHookProcess, MAX_HOOK_OUTPUT_BYTES, type HookWrapper, type HookLaunch } from './hook-runner';
export { SessionHooks, withHookContext, type SessionHooksOptions } from './session-hooks';
export { hookedPermissions } from './hook-gate';
export { hookedSources, hookedTools } from './hook-tools';
export { ApprovalStore, ApprovalsError, approveProject, projectItems, type ProjectItem } from './approvals';
