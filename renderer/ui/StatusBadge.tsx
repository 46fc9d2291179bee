/**
 * A session's status as text with a shape and color, never color alone. Screen readers (and
 * tests, by text) read it as "Status: Done": a static badge is no live region, so the word
 * "Status" is visually hidden text rather than a role; `data-status` names it for styles.
 */
import type { SessionStatus } from '../../shared/contract';

export const STATUS_LABELS: Record<SessionStatus, string> = {
  idle: 'New',
  running: 'Running',
  waiting: 'Waiting for you',
  done: 'Done',
  error: 'Error',
  aborted: 'Stopped',
  interrupted: 'Interrupted',
};

const STATUS_ICONS: Record<SessionStatus, string> = {
  idle: '○',
  running: '◐',
  waiting: '!',
  done: '✓',
  error: '✕',
  aborted: '■',
  interrupted: '⚠',
};

/** What a word alone does not say. */
export const STATUS_HINTS: Partial<Record<SessionStatus, string>> = {
  aborted: 'Stopped by you before the run ended',
  interrupted: 'Cove quit while this session was running; open it to resume',
  error: 'The last run failed; open the session to see why',
};

export function StatusBadge({ status }: { status: SessionStatus }) {
  return (
    <span className={`badge status-${status}`} data-status={status} title={STATUS_HINTS[status]}>
      <span aria-hidden="true" className={status === 'running' ? 'spin' : undefined}>
        {STATUS_ICONS[status]}
      </span>{' '}
      <span className="visually-hidden">Status: </span>
      {STATUS_LABELS[status]}
    </span>
  );
}
