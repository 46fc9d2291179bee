/**
 * Which side panels show at a window width. Each panel is open unless the transcript would be
 * left narrower than MIN_TRANSCRIPT_WIDTH; the subagents panel gives way first, since the
 * transcript shows what subagents do as well. A person's choice (the panel's button) wins
 * until the window crosses that panel's threshold: a choice made for a narrow window says
 * nothing about a wide one.
 */
export const PANEL_WIDTH = 280;
/** About 60 columns of terminal output, and prose lines of a readable length. */
export const MIN_TRANSCRIPT_WIDTH = 540;
/** Below this the session header takes one line. */
export const ONE_LINE_HEADER_WIDTH = 1100;

export type PanelName = 'sessions' | 'subagents';

/** A person's choice, and whether the window was narrow for that panel when it was made. */
export interface PanelChoice {
  open: boolean;
  narrow: boolean;
}

export type PanelChoices = Partial<Record<PanelName, PanelChoice>>;

export interface PanelState {
  open: boolean;
  /** True when the panel is closed only because the window is too narrow. */
  autoCollapsed: boolean;
}

/** The width under which a panel closes on its own. */
export function collapseBelow(panel: PanelName): number {
  return panel === 'sessions' ? PANEL_WIDTH + MIN_TRANSCRIPT_WIDTH : 2 * PANEL_WIDTH + MIN_TRANSCRIPT_WIDTH;
}

export function isNarrowFor(panel: PanelName, width: number): boolean {
  return width < collapseBelow(panel);
}

export function panelState(panel: PanelName, width: number, choices: PanelChoices): PanelState {
  const narrow = isNarrowFor(panel, width);
  const choice = choices[panel];
  if (choice && choice.narrow === narrow) return { open: choice.open, autoCollapsed: false };
  return { open: !narrow, autoCollapsed: narrow };
}

/** The choice a toggle records: the opposite of what shows now, at this width. */
export function toggledChoice(panel: PanelName, width: number, choices: PanelChoices): PanelChoice {
  return { open: !panelState(panel, width, choices).open, narrow: isNarrowFor(panel, width) };
}
