/**
 * A bash call's terminal from its events, the same live as redrawn. Past what the store keeps,
 * updates are live-only (`details.live`); the end result's `details.uiTail` stands in for them in
 * the store. So the end puts the tail after the terminal as it was before the first live-only
 * update, and a live view ends exactly as a redraw does. Chunks come in `details.chunk`; sessions
 * stored before it also carried the chunk as text content, which is ignored here.
 */
import { appendTerminal, EMPTY_TERMINAL, type TerminalBuffer } from './terminal-buffer';

export interface TerminalState {
  terminal: TerminalBuffer | null;
  /** The terminal before the first live-only update, while there are some. */
  storedTerminal?: TerminalBuffer | undefined;
}

function field(details: unknown, name: string): unknown {
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>)[name] : undefined;
}

/** The state after an update, or undefined when the update carries no terminal chunk. */
export function terminalAfterUpdate(state: TerminalState, details: unknown): TerminalState | undefined {
  const chunk = field(details, 'chunk');
  if (typeof chunk !== 'string') return undefined;
  const terminal = state.terminal ?? EMPTY_TERMINAL;
  const storedTerminal = state.storedTerminal ?? (field(details, 'live') === true ? terminal : undefined);
  return { terminal: appendTerminal(terminal, chunk), ...(storedTerminal ? { storedTerminal } : {}) };
}

/** The state after the call's end: its stored tail, when it has one, after the stored updates. */
export function terminalAtEnd(state: TerminalState, details: unknown): TerminalState {
  const tail = field(details, 'uiTail');
  if (typeof tail !== 'string') return { terminal: state.terminal, storedTerminal: state.storedTerminal };
  return { terminal: appendTerminal(state.storedTerminal ?? state.terminal ?? EMPTY_TERMINAL, tail), storedTerminal: undefined };
}
