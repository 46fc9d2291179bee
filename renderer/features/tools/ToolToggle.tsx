/**
 * The button that heads a tool card and a group of calls: it opens and closes the body below,
 * and shows the outcome's icon, so one call and a group of them read alike.
 */
import type { ReactNode } from 'react';
import type { OutcomeTone } from './tool-outcome';

const ICONS: Record<OutcomeTone, string> = { running: '◐', done: '✓', failed: '✕', denied: '⊘', cancelled: '■', interrupted: '!' };

export function ToolToggle({
  open,
  bodyId,
  tone,
  running,
  onToggle,
  children,
}: {
  open: boolean;
  bodyId: string;
  tone: OutcomeTone;
  running: boolean;
  onToggle(): void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="tool-toggle" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={onToggle}>
      <span className="tool-chevron" aria-hidden="true">
        {open ? '▾' : '▸'}
      </span>
      <span className={`tool-icon${running ? ' spin' : ''}`} aria-hidden="true">
        {ICONS[tone]}
      </span>
      {children}
    </button>
  );
}
