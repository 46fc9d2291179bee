/** The top bar's button that opens or closes a side panel; says when the window closed it. */
import type { PanelState } from './panel-layout';

export const SUBAGENTS_PANEL_ID = 'subagents-panel';

interface PanelButtonProps {
  label: string;
  controls: string;
  state: PanelState;
  onToggle(): void;
  icon: string;
  /** Shown beside the icon, e.g. how many subagents run. */
  detail?: string;
}

export function PanelButton({ label, controls, state, onToggle, icon, detail }: PanelButtonProps) {
  const why = state.autoCollapsed ? ' (closed: the window is narrow)' : '';
  return (
    <button
      type="button"
      className={`panel-button${state.open ? ' open' : ''}`}
      // The visible count is part of the name (WCAG 2.5.3: what is seen is what is said).
      aria-label={detail ? `${label}, ${detail}` : label}
      aria-expanded={state.open}
      aria-controls={state.open ? controls : undefined}
      title={`${state.open ? 'Hide' : 'Show'} the ${label.toLowerCase()}${why}`}
      onClick={onToggle}
    >
      <span aria-hidden="true">{icon}</span>
      {detail ? <span className="panel-button-detail">{detail}</span> : null}
    </button>
  );
}
