/**
 * A rewind's or a revert's row in the transcript. A rewind that cut the conversation back says
 * the conversation continued from there, with the rows cut away folded under it (shown faded on
 * request); a revert from the review pane says what it put back and offers Undo until it is
 * undone (main refuses, naming the files, when they changed since).
 */
import { memo, useState, type ReactNode } from 'react';
import { useCove } from '../../store';
import { ask } from '../../store/request';
import type { RestoreItem, TranscriptItem } from '../transcript/model-types';

function names(paths: readonly string[]): string {
  const short = paths.map((path) => path.split('/').at(-1) ?? path);
  return short.length > 3 ? `${short.slice(0, 3).join(', ')} and ${short.length - 3} more` : short.join(', ');
}

function rowsWord(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

interface Props {
  item: RestoreItem;
  sessionId: string;
  /** Draws a folded row as the transcript does. */
  renderItem(item: TranscriptItem): ReactNode;
}

export const RestoreMarker = memo(function RestoreMarker({ item, sessionId, renderItem }: Props) {
  const [shown, setShown] = useState(false);
  const { event } = item;
  if (event.type === 'revert') return <RevertMarker item={item} sessionId={sessionId} />;
  const files = `${event.restored.length} put back, ${event.removed.length} removed`;
  if (!item.cut) {
    return (
      <div className="restore-marker" role="note" aria-label="Rewind">
        Rewound the files to before prompt {event.toPrompt}: {files}.
      </div>
    );
  }
  return (
    <section className="restore-marker conversation-cut" aria-label="Conversation cut">
      <p>
        <strong>The conversation continued from here.</strong> It was cut back to before prompt {event.toPrompt}
        {event.checkpointId ? ` and the files rewound (${files})` : ''}; the {rowsWord(item.cut.length)} folded here are no longer sent to the model.
      </p>
      <button type="button" className="link-button" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? 'Hide what was cut' : `Show what was cut (${rowsWord(item.cut.length)})`}
      </button>
      {shown ? (
        <div className="cut-away" aria-label="Cut from the conversation">
          {item.cut.map((inner) => (
            <div key={inner.key}>{renderItem(inner)}</div>
          ))}
        </div>
      ) : null}
    </section>
  );
});

function RevertMarker({ item, sessionId }: { item: RestoreItem; sessionId: string }) {
  const event = item.event;
  const running = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.state.running);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (event.type !== 'revert') return null;
  const what = event.scope === 'hunk' ? `the hunk ${event.hunk ?? ''} of ${names(event.paths)}` : names(event.paths);
  const of = event.prompt === undefined ? "the session's change" : `prompt ${event.prompt}'s change`;
  const undo = async () => {
    setBusy(true);
    const report = await ask('session:undoRevert', { sessionId, seq: event.seq! });
    setBusy(false);
    if (report && !report.undone) setRefusal(`Not undone: changed since the revert: ${report.conflicts.join(', ')}`);
  };
  if (event.undoes !== undefined) {
    return (
      <div className="restore-marker" role="note" aria-label="Revert undone">
        Undid the revert of {what}: the agent&apos;s change is back.
      </div>
    );
  }
  return (
    <div className="restore-marker" role="note" aria-label="Revert">
      Reverted {what} ({of}) in the review pane{item.undone ? ', since undone' : ''}.
      {!item.undone && event.seq !== undefined ? (
        <button type="button" className="link-button" disabled={busy || running} onClick={() => void undo()}>
          Undo revert
        </button>
      ) : null}
      {refusal ? (
        <p role="alert" className="inline-error">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}
