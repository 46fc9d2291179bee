/**
 * The renderer's one zustand store. Main owns the data: this is a cache that bootstrap fills
 * from `session:list`, `permission:pending` and `session:open`, and can fill again at any time
 * (after a reconnect it does).
 */
import { create } from 'zustand';
import { createComposerSlice } from './composer-slice';
import { createConnectionSlice } from './connection-slice';
import { actionFor, createNoticesSlice } from './notices-slice';
import { createMcpSlice } from './mcp-slice';
import { createApprovalsSlice } from './approvals-slice';
import { createPermissionsSlice } from './permissions-slice';
import { createPersonasSlice } from './personas-slice';
import { createPromptImagesSlice } from './prompt-images-slice';
import { reportRequestFailures } from './request';
import { createSessionsSlice } from './sessions-slice';
import { createSettingsSlice } from './settings-slice';
import { createTranscriptSlice } from './transcript-slice';
import type { CoveState } from './types';
import { createWorkspaceSlice } from './workspace-slice';

export type { CoveState } from './types';

export const useCove = create<CoveState>()((...args) => ({
  ...createSessionsSlice(...args),
  ...createTranscriptSlice(...args),
  ...createPermissionsSlice(...args),
  ...createComposerSlice(...args),
  ...createSettingsSlice(...args),
  ...createConnectionSlice(...args),
  ...createNoticesSlice(...args),
  ...createWorkspaceSlice(...args),
  ...createPersonasSlice(...args),
  ...createMcpSlice(...args),
  ...createPromptImagesSlice(...args),
  ...createApprovalsSlice(...args),
}));

reportRequestFailures((message, code) => useCove.getState().notify(message, 'error', actionFor(code)));
