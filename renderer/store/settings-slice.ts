/** The settings dialog: API key state, model, default mode, and the open workspace's rules (its MCP servers: ./mcp-slice.ts). */
import type { StateCreator } from 'zustand';
import type { ModelChoice, RequestInput, Response, SettingsView } from '../../shared/contract';
import { call } from '../transport/client';
import type { CoveState } from './types';

export interface SettingsSlice {
  settingsOpen: boolean;
  settings: SettingsView | null;
  /** The workspace whose rules are shown. */
  settingsWorkspace: string | null;
  settingsBusy: boolean;
  settingsError: string | null;
  /** The models Settings offers (models:list); empty until they arrive. */
  modelChoices: ModelChoice[];
  openSettings(): void;
  closeSettings(): void;
  loadSettings(): Promise<void>;
  updateSettings(patch: RequestInput<'settings:update'>): Promise<boolean>;
  /** `unprotectedFile`: the person agreed to a plain 0600 file where no keychain exists. */
  setApiKey(apiKey: string | null, options?: { unprotectedFile?: boolean }): Promise<boolean>;
  removeRule(list: 'allow' | 'ask' | 'deny', rule: string): Promise<boolean>;
}

/** The folder whose rules and MCP servers Settings shows: the open session's first. */
export function activeWorkspace(state: CoveState): string | null {
  const active = state.activeSessionId;
  return (active && state.sessions[active]?.workspaces[0]) || null;
}

export const createSettingsSlice: StateCreator<CoveState, [], [], SettingsSlice> = (set, get) => {
  /** Every settings request answers the whole view; an error shows inline in the dialog. */
  const settle = (response: Response<SettingsView>): boolean => {
    if (response.ok) set({ settings: response.value, settingsBusy: false, settingsError: null });
    else set({ settingsBusy: false, settingsError: response.error.message });
    return response.ok;
  };

  return {
    settingsOpen: false,
    settings: null,
    settingsWorkspace: null,
    settingsBusy: false,
    settingsError: null,
    modelChoices: [],

    openSettings() {
      set({ settingsOpen: true, settingsError: null });
      void get().loadSettings();
      void get().loadMcpStatus();
      // The list only helps choose; without it the model field still takes any id.
      void call('models:list', {}).then((response) => {
        if (response.ok) set({ modelChoices: response.value.models });
      });
    },

    closeSettings() {
      set({ settingsOpen: false });
    },

    async loadSettings() {
      const folder = activeWorkspace(get());
      set({ settingsBusy: true, settingsWorkspace: folder });
      return void settle(await call('settings:get', folder ? { workspace: folder } : {}));
    },

    async updateSettings(patch) {
      set({ settingsBusy: true });
      const ok = settle(await call('settings:update', patch));
      // The update answers without workspace rules; fetch them again for the open workspace.
      if (ok && get().settingsWorkspace) await get().loadSettings();
      return ok;
    },

    async setApiKey(apiKey, options) {
      set({ settingsBusy: true });
      const ok = settle(await call('settings:setApiKey', options?.unprotectedFile ? { apiKey, unprotectedFile: true } : { apiKey }));
      if (ok && get().settingsWorkspace) await get().loadSettings();
      return ok;
    },

    async removeRule(list, rule) {
      const folder = get().settingsWorkspace;
      if (!folder) return false;
      set({ settingsBusy: true });
      return settle(await call('settings:removeRule', { workspace: folder, list, rule }));
    },
  };
};
