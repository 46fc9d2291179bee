/**
 * The parts of the window that are not on the first screen, each a chunk of its own that is
 * fetched on first use: the first screen (the sessions list and the new-session form) then
 * parses and renders less. Kept free of React so that main.tsx can start a fetch early (the
 * session view, when a session was open before the reload) without pulling the interface in.
 */
export const loadSessionView = () => import('../features/session/SessionView');
export const loadSettingsDialog = () => import('../features/settings/SettingsDialog');
export const loadSubagentSidebar = () => import('../features/subagents/SubagentSidebar');
