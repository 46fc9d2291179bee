/**
 * "Rewind to here" on a prompt: asks main what a rewind to before this prompt would change (a
 * dry run), shows it, and only then puts the files back. Files changed by hand since the last
 * checkpoint are named and overwritten only if the person says so.
 */
import { memo, useState } from 'react';
import type { RewindReport } from '../../../shared/contract';
import { useCove } from '../../store';
import { ask } from '../../store/request';
import { rewindablePrompt } from './restore-items';

const VERBS = { revert: 'Revert', restore: 'Restore', remove: 'Remove' } as const;

export const RewindControl = memo(function RewindControl({ sessionId, itemKey, text }: { sessionId: string; itemKey: string; text: string }) {
  const prompt = useCove((state) => (state.transcript?.sessionId === sessionId ? rewindablePrompt(state.transcript.state.items, itemKey) : null));
  const running = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.state.running);
  const [plan, setPlan] = useState<RewindReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  // The person's choice: the conversation goes on from here (told what was undone), or is cut back too.
  const [cutConversation, setCutConversation] = useState(false);
  if (prompt === null) return null;

  const run = async (options: { dryRun: boolean; force?: boolean }) => {
    setBusy(true);
    try {
      const report = await ask('session:rewind', { sessionId, toPrompt: prompt, ...options, ...(!options.dryRun && cutConversation ? { cutConversation } : {}) });
      // Main numbers prompts from the stored events; a transcript that shows them otherwise
      // (a steered prompt not drawn after a reload) must never rewind to another prompt.
      if (report && report.promptText !== text) setMismatch(true);
      else if (report) setPlan(report);
    } finally {
      setBusy(false);
    }
  };

  if (mismatch) {
    return (
      <p className="inline-error" role="alert">
        This prompt could not be matched to the session&apos;s record; use cove rewind {sessionId} --to N instead.
      </p>
    );
  }
  if (!plan) {
    return (
      <button type="button" className="link-button rewind-button" disabled={busy || running} onClick={() => void run({ dryRun: true })}>
        Rewind to here
      </button>
    );
  }
  return (
    <section className="rewind-plan" aria-label={`Rewind to before prompt ${prompt}`}>
      {plan.applied ? (
        <p role="status">
          Rewound: {plan.restored.length} put back, {plan.removed.length} removed{plan.failed.length > 0 ? `; ${plan.failed.length} could not be changed` : ''}.
        </p>
      ) : plan.changes.length === 0 ? (
        <p role="status">Nothing to rewind: the files are as they were before this prompt.</p>
      ) : (
        <p>Put the files back as they were before this prompt:</p>
      )}
      <ul className="rewind-changes">
        {(plan.applied ? [] : plan.changes).map((change) => (
          <li key={change.path}>
            {VERBS[change.action]} <code>{change.path}</code>
          </li>
        ))}
        {[...plan.kept, ...plan.failed].map((kept) => (
          <li key={kept}>Keep {kept}</li>
        ))}
      </ul>
      {plan.conflicts.length > 0 && !plan.applied ? <p role="alert">Changed by hand since, and would be overwritten: {plan.conflicts.join(', ')}</p> : null}
      {!plan.applied && plan.changes.length > 0 ? (
        <label className="rewind-cut">
          <input type="checkbox" checked={cutConversation} onChange={(event) => setCutConversation(event.target.checked)} />
          Also cut the conversation back to before this prompt
        </label>
      ) : null}
      {plan.applied && plan.conversationCut ? <p role="status">The conversation was cut back: the next message starts from before this prompt.</p> : null}
      <div className="rewind-actions">
        {!plan.applied && plan.changes.length > 0 ? (
          plan.conflicts.length > 0 ? (
            <button type="button" className="danger" disabled={busy} onClick={() => void run({ dryRun: false, force: true })}>
              Rewind, overwriting my changes
            </button>
          ) : (
            <button type="button" className="primary" disabled={busy} onClick={() => void run({ dryRun: false })}>
              Rewind files
            </button>
          )
        ) : null}
        <button type="button" disabled={busy} onClick={() => setPlan(null)}>
          {plan.applied || plan.changes.length === 0 ? 'Close' : 'Cancel'}
        </button>
      </div>
    </section>
  );
});
