/** The state of the link to main, for the "Reconnecting…" banner. */
import type { StateCreator } from 'zustand';
import type { ConnectionState } from '../transport/types';
import type { CoveState } from './types';

export interface ConnectionSlice {
  connection: ConnectionState;
  transportKind: 'electron' | 'websocket' | null;
  missingToken: boolean;
  setConnection(connection: ConnectionState): void;
}

export const createConnectionSlice: StateCreator<CoveState, [], [], ConnectionSlice> = (set) => ({
  connection: { status: 'connecting' },
  transportKind: null,
  missingToken: false,
  setConnection(connection) {
    set({ connection });
  },
});
