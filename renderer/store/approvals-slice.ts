/**
 * What the open session's folders bring that runs commands (hooks, MCP servers), and the
 * person's approval of it. Main keeps the approvals; this is the latest answer per folder.
 */
import type { StateCreator } from 'zustand';
import type { ProjectApprovalsView } from '../../shared/contract';
import { call } from '../transport/client';
import type { CoveState } from './types';

export interface ApprovalsSlice {
  approvals: Record<string, ProjectApprovalsView>;
  approvalsBusy: Record<string, boolean>;
  loadApprovals(workspace: string): Promise<void>;
  /** Approves every pending item of the folder, as shown. */
  approveProject(workspace: string, ids: string[]): Promise<void>;
}

export const createApprovalsSlice: StateCreator<CoveState, [], [], ApprovalsSlice> = (set, get) => ({
  approvals: {},
  approvalsBusy: {},

  async loadApprovals(workspace) {
    const response = await call('approval:list', { workspace });
    if (response.ok) set({ approvals: { ...get().approvals, [workspace]: response.value } });
  },

  async approveProject(workspace, ids) {
    set({ approvalsBusy: { ...get().approvalsBusy, [workspace]: true } });
    // Only what the person saw is approved: an item changed meanwhile has another id and stays pending.
    const response = await call('approval:approve', { workspace, ids });
    set({ approvalsBusy: { ...get().approvalsBusy, [workspace]: false } });
    if (response.ok) set({ approvals: { ...get().approvals, [workspace]: response.value } });
    else get().notify(response.error.message);
  },
});
