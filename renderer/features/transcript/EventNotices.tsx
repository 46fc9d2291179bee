/** Small rows: provider retries, compaction, loop warnings, run ends, subagent markers. */
import { useCove } from '../../store';
import { compactNumber, dollars } from '../../ui/format';
import type { CompactionItem, LoopItem, RetryItem, RunEndItem, SubagentMarkerItem } from './model-types';

export function RetryNotice({ item }: { item: RetryItem }) {
  return (
    <div className="item event-notice retry-notice" role="note">
      <span aria-hidden="true">↻</span> The model provider failed ({item.error}). Retrying in {(item.delayMs / 1000).toFixed(1)} s — attempt {item.attempt} of {item.maxAttempts}.
    </div>
  );
}

export function CompactionNotice({ item }: { item: CompactionItem }) {
  return (
    <div className="item event-notice" role="note">
      <span aria-hidden="true">⇊</span> Context compacted: {item.removedMessages} older messages {item.summarized ? 'were summarized' : 'were dropped'} (about{' '}
      {compactNumber(item.tokensBefore)} tokens before).
    </div>
  );
}

export function LoopNotice({ item }: { item: LoopItem }) {
  return (
    <div className="item event-notice warning-notice" role="note">
      <span aria-hidden="true">⟳</span> The model repeated {item.toolName} {item.count} times; {item.action === 'nudge' ? 'it was told to change course.' : 'the run was stopped.'}
    </div>
  );
}

const END_LABELS: Record<RunEndItem['stopReason'], string> = {
  endTurn: 'Done',
  aborted: 'Stopped',
  error: 'The run failed',
  maxTurns: 'Stopped at the turn limit',
  loopDetected: 'Stopped: the model kept repeating itself',
  truncated: 'Stopped: the reply was cut off at the output limit',
  refused: 'The model declined this request',
  contextExceeded: 'Stopped: the conversation no longer fits the context window',
};

/** What a person can do about a failure: a refused key is fixed in Settings, where a Retry would only fail again. */
const FAILURE_HINTS: Record<NonNullable<RunEndItem['errorKind']>, string> = {
  authentication: 'The API refused the key. Check or replace it in Settings, then retry.',
  connection: 'Cove could not reach the API. Check the network (or ANTHROPIC_BASE_URL), then retry.',
};

export function RunEndMarker({ item, sessionId }: { item: RunEndItem; sessionId: string }) {
  const retrySession = useCove((state) => state.retrySession);
  const openSettings = useCove((state) => state.openSettings);
  // Only the latest failure can be retried: a later run has moved the session on.
  const latest = useCove((state) => state.transcript?.state.items.findLast((candidate) => candidate.kind === 'runEnd' || candidate.kind === 'resume')?.key === item.key);
  const offline = useCove((state) => state.connection.status !== 'open');
  const tokens = item.usage.input + item.usage.output + item.usage.cacheRead + item.usage.cacheWrite;
  const failed = item.stopReason === 'error';
  const label = item.errorKind === 'authentication' ? 'The API key was refused' : END_LABELS[item.stopReason];
  return (
    <div className={`item run-end run-end-${item.stopReason}`} role={failed ? 'group' : 'note'} aria-label={label}>
      <span className="run-end-label">
        {failed ? <span aria-hidden="true">✕ </span> : null}
        {label}
      </span>
      {item.error ? <span className="run-end-error">{item.error}</span> : null}
      {item.errorKind ? <span className="run-end-hint">{FAILURE_HINTS[item.errorKind]}</span> : null}
      <span className="run-end-usage">
        {compactNumber(tokens)} tokens · {item.cost ? dollars(item.cost.total) : 'cost unknown'}
      </span>
      {failed && item.errorKind === 'authentication' ? (
        <button type="button" onClick={openSettings}>
          Open Settings
        </button>
      ) : null}
      {failed && latest ? (
        <button type="button" disabled={offline} onClick={() => void retrySession(sessionId)}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function ResumeNotice() {
  return (
    <div className="item event-notice" role="note">
      <span aria-hidden="true">↻</span> Going on from where the run stopped (the prompt is not sent again).
    </div>
  );
}

const SUBAGENT_END: Record<string, string> = { done: 'finished', failed: 'failed', cancelled: 'was cancelled' };

export function SubagentMarker({ item }: { item: SubagentMarkerItem }) {
  return (
    <div className="item event-notice subagent-marker" role="note">
      <span aria-hidden="true">↳</span>{' '}
      {item.status === null ? (
        <>
          Subagent <strong>{item.displayName}</strong> started: {item.task}
        </>
      ) : (
        <>
          Subagent <strong>{item.displayName}</strong> {SUBAGENT_END[item.status] ?? item.status}.
        </>
      )}
    </div>
  );
}
