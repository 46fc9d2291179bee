/**
 * A hook's run as one line: which event, the command, what it decided, and how long it took;
 * its output (already redacted and cut in main) opens on demand. A hook that failed or timed
 * out reads as a warning, since the run went on without it.
 */
import type { HookItem } from './model-types';

const DECISIONS: Record<string, string> = {
  allow: 'allowed the call',
  deny: 'denied the call',
  ask: 'asked before the call',
  block: 'blocked',
  stop: 'stopped the run',
  error: 'failed',
};

export function HookNotice({ item }: { item: HookItem }) {
  const failed = item.decision === 'error';
  const said = item.timedOut ? 'timed out and was killed' : item.decision ? (DECISIONS[item.decision] ?? item.decision) : 'ran';
  return (
    <div className={`item event-notice hook-notice${failed ? ' warning-notice' : ''}`} role="note" aria-label={`${item.hookEvent} hook ${said}`}>
      <span aria-hidden="true">⚑</span> {item.hookEvent} hook {said}: <code title={item.file}>{item.command}</code>{' '}
      <span className="hook-meta">
        ({item.exitCode === null ? 'no exit code' : `exit ${item.exitCode}`}, {(item.durationMs / 1000).toFixed(1)} s)
      </span>
      {item.output ? (
        <details>
          <summary>output</summary>
          <pre>{item.output}</pre>
        </details>
      ) : null}
    </div>
  );
}
