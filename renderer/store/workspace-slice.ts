/**
 * The folder of the new-session view: what is typed, and what main said about it. A folder
 * dropped on the window lands here too when no session is open.
 */
import type { StateCreator } from 'zustand';
import { call } from '../transport/client';
import type { CoveState } from './types';

export type FolderCheck = { status: 'idle' } | { status: 'checking'; path: string } | { status: 'ok'; path: string; name: string } | { status: 'error'; path: string; message: string };

export interface WorkspaceSlice {
  folderDraft: string;
  folderCheck: FolderCheck;
  setFolderDraft(path: string): void;
  /** Asks main whether the path is a readable folder; answers the check. */
  checkFolder(path: string): Promise<FolderCheck>;
  /** Checks the dropped or typed folders and starts a session with those that are folders. */
  startSessionWith(paths: string[]): Promise<boolean>;
}

export const createWorkspaceSlice: StateCreator<CoveState, [], [], WorkspaceSlice> = (set, get) => ({
  folderDraft: '',
  folderCheck: { status: 'idle' },

  setFolderDraft(path) {
    set({ folderDraft: path, folderCheck: { status: 'idle' } });
  },

  async checkFolder(path) {
    const trimmed = path.trim();
    if (trimmed === '') {
      const check: FolderCheck = { status: 'error', path, message: 'Type or paste the path of a project folder, or drop the folder on this window.' };
      set({ folderCheck: check });
      return check;
    }
    set({ folderCheck: { status: 'checking', path: trimmed } });
    const response = await call('workspace:check', { path: trimmed });
    const check: FolderCheck = response.ok ? { status: 'ok', path: response.value.path, name: response.value.name } : { status: 'error', path: trimmed, message: response.error.message };
    // A newer path typed meanwhile has its own check.
    if (get().folderDraft.trim() === trimmed || get().folderDraft === '') set({ folderCheck: check });
    return check;
  },

  async startSessionWith(paths) {
    const folders: string[] = [];
    for (const path of paths) {
      const response = await call('workspace:check', { path });
      if (response.ok) folders.push(response.value.path);
      else get().notify(response.error.message);
    }
    if (folders.length === 0) return false;
    const response = await call('session:create', { workspaces: folders });
    if (!response.ok) {
      get().notify(response.error.message);
      return false;
    }
    get().upsertSession(response.value);
    get().selectSession(response.value.id);
    return true;
  },
});
