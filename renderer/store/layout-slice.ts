/** How the window is laid out: the side panels a person opened or closed, and how the sessions list is grouped. */
import type { StateCreator } from 'zustand';
import { toggledChoice, type PanelChoices, type PanelName } from '../app/panel-layout';
import { readStored, writeStored } from './storage';
import type { CoveState } from './types';

export type SessionGrouping = 'date' | 'project';

export interface LayoutSlice {
  panelChoices: PanelChoices;
  sessionGrouping: SessionGrouping;
  /** Opens or closes a panel at the current window width; the choice is kept across reloads. */
  togglePanel(panel: PanelName, width: number): void;
  setSessionGrouping(grouping: SessionGrouping): void;
}

const PANELS_KEY = 'cove.panels';
const GROUPING_KEY = 'cove.sessionGrouping';

function storedChoices(): PanelChoices {
  const stored = readStored<unknown>(PANELS_KEY, {});
  const choices: PanelChoices = {};
  if (typeof stored !== 'object' || stored === null) return choices;
  for (const panel of ['sessions', 'subagents'] as const) {
    const choice = (stored as Record<string, unknown>)[panel] as { open?: unknown; narrow?: unknown } | undefined;
    if (choice && typeof choice.open === 'boolean' && typeof choice.narrow === 'boolean') choices[panel] = { open: choice.open, narrow: choice.narrow };
  }
  return choices;
}

export const createLayoutSlice: StateCreator<CoveState, [], [], LayoutSlice> = (set, get) => ({
  panelChoices: storedChoices(),
  sessionGrouping: readStored<string>(GROUPING_KEY, 'date') === 'project' ? 'project' : 'date',

  togglePanel(panel, width) {
    const panelChoices = { ...get().panelChoices, [panel]: toggledChoice(panel, width, get().panelChoices) };
    writeStored(PANELS_KEY, panelChoices);
    set({ panelChoices });
  },

  setSessionGrouping(sessionGrouping) {
    writeStored(GROUPING_KEY, sessionGrouping);
    set({ sessionGrouping });
  },
});
