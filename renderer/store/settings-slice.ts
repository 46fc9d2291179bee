/** The settings dialog: API key state, model, default mode, and the open workspace's rules (its MCP servers: ./mcp-slice.ts). */
import type { StateCreator } from 'zustand';
import type { ApiKeyCheckView, ModelChoice, RequestInput, Response, RuleCheckView, SettingsView } from '../../shared/contract';
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
  removeRule(file: RuleFile, list: RuleList, rule: string): Promise<boolean>;
  /** Adds a rule, or with `replaces` edits one in place. */
  saveRule(file: RuleFile, list: RuleList, rule: string, replaces?: string): Promise<boolean>;
  /** The rule syntax check as the person types; null when the host could not be asked. */
  checkRule(rule: string): Promise<RuleCheckView | null>;
  checkApiKey(apiKey: string): Promise<ApiKeyCheckView | null>;
}

export type RuleFile = RequestInput<'settings:saveRule'>['file'];
export type RuleList = RequestInput<'settings:saveRule'>['list'];

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

  const workspaceOf = () => {
    const folder = get().settingsWorkspace;
    return folder ? { workspace: folder } : {};
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

    async removeRule(file, list, rule) {
      set({ settingsBusy: true });
      return settle(await call('settings:removeRule', { ...workspaceOf(), file, list, rule }));
    },

    async saveRule(file, list, rule, replaces) {
      set({ settingsBusy: true });
      return settle(await call('settings:saveRule', { ...workspaceOf(), file, list, rule, ...(replaces ? { replaces } : {}) }));
    },

    async checkRule(rule) {
      const response = await call('settings:checkRule', { rule });
      return response.ok ? response.value : null;
    },

    async checkApiKey(apiKey) {
      const response = await call('settings:checkApiKey', { apiKey });
      if (response.ok) return response.value;
      set({ settingsError: response.error.message });
      return null;
    },
  };
};
