/**
 * The message box. Enter sends, Shift+Enter adds a line (and Enter while an input method is
 * composing is left alone). The draft lives in the store and sessionStorage, so nothing typed
 * is lost to a failed send, a session switch or a reload.
 */
import { useId, type ReactNode } from 'react';
import { useCove } from '../../store';

interface Props {
  draftKey: string;
  submitLabel: string;
  onSubmit(): void;
  placeholder: string;
  busy?: boolean;
  /** Submit with an empty message (the new-session view can start a session without one). */
  allowEmpty?: boolean;
  autoFocus?: boolean;
  /** Shown next to the buttons (Stop, the queued note). */
  extra?: ReactNode;
}

export function Composer({ draftKey, submitLabel, onSubmit, placeholder, busy = false, allowEmpty = false, autoFocus, extra }: Props) {
  const draft = useCove((state) => state.drafts[draftKey] ?? '');
  const setDraft = useCove((state) => state.setDraft);
  const hintId = useId();
  const empty = draft.trim() === '';
  const disabled = busy || (empty && !allowEmpty);
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) onSubmit();
      }}
    >
      <textarea
        className="composer-input"
        aria-label="Message"
        aria-describedby={hintId}
        placeholder={placeholder}
        rows={3}
        autoFocus={autoFocus}
        value={draft}
        onChange={(event) => setDraft(draftKey, event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          if (!disabled) onSubmit();
        }}
      />
      <div className="composer-actions">
        <span id={hintId} className="composer-hint">
          Enter to send · Shift+Enter for a new line
        </span>
        {extra}
        <button type="submit" className="primary" disabled={disabled}>
          {busy ? 'Sending…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
