/**
 * The MCP servers of the open session's first folder (where its tools run), for Settings:
 * read when the dialog opens and on Refresh. Main starts a folder's servers on first use, so
 * the first answer often says "starting"; the section asks again while any is on its way.
 */
import type { StateCreator } from 'zustand';
import type { McpStatusView } from '../../shared/contract';
import { call } from '../transport/client';
import { activeWorkspace } from './settings-slice';
import type { CoveState } from './types';

export interface McpSlice {
  mcpStatus: McpStatusView | null;
  mcpError: string | null;
  mcpLoading: boolean;
  loadMcpStatus(): Promise<void>;
}

let latest = 0;

export const createMcpSlice: StateCreator<CoveState, [], [], McpSlice> = (set, get) => ({
  mcpStatus: null,
  mcpError: null,
  mcpLoading: false,

  async loadMcpStatus() {
    const workspace = activeWorkspace(get());
    const request = ++latest;
    if (!workspace) return set({ mcpStatus: null, mcpError: null, mcpLoading: false });
    // A status of another folder is not shown while this one's is on its way.
    if (get().mcpStatus?.workspace !== workspace) set({ mcpStatus: null });
    set({ mcpLoading: true });
    const response = await call('mcp:status', { workspace });
    if (request !== latest) return;
    if (response.ok) set({ mcpStatus: response.value, mcpError: null, mcpLoading: false });
    else set({ mcpError: response.error.message, mcpLoading: false });
  },
});
