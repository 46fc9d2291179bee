/** React components of the chunks in feature-chunks.ts; each draws nothing until its chunk is in. */
import { lazy } from 'react';
import { loadSessionView, loadSettingsDialog, loadSubagentSidebar } from './feature-chunks';

export const LazySessionView = lazy(() => loadSessionView().then((module) => ({ default: module.SessionView })));
export const LazySettingsDialog = lazy(() => loadSettingsDialog().then((module) => ({ default: module.SettingsDialog })));
export const LazySubagentSidebar = lazy(() => loadSubagentSidebar().then((module) => ({ default: module.SubagentSidebar })));
