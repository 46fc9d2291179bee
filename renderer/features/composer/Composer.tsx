/**
 * The message box. Enter sends, Shift+Enter adds a line (and Enter while an input method is
 * composing is left alone). The draft lives in the store and sessionStorage, so nothing typed
 * is lost to a failed send, a session switch or a reload. In a session, `/` at the start
 * completes slash commands and `@` completes workspace paths (ArrowUp/ArrowDown choose, Tab or
 * Enter accepts, Escape closes), and pasted or dropped images wait as thumbnails for the send.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { useCove } from '../../store';
import { isImageFile } from '../../store/prompt-images-slice';
import { CompletionList } from './CompletionList';
import { applyCompletion, tokenAt } from './completion-token';
import { PendingImages } from './PendingImages';
import { useCompletions } from './use-completions';

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
  /** The session the message goes to: completions and images need one. */
  sessionId?: string;
  /** Why nothing can be sent now (the link to Cove is lost); typing stays possible. */
  unavailable?: string;
}

export function Composer({ draftKey, submitLabel, onSubmit, placeholder, busy = false, allowEmpty = false, autoFocus, extra, sessionId, unavailable }: Props) {
  const draft = useCove((state) => state.drafts[draftKey] ?? '');
  const setDraft = useCove((state) => state.setDraft);
  const addImages = useCove((state) => state.addPromptImages);
  const hintId = useId();
  const listId = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [highlighted, setHighlighted] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const token = sessionId ? tokenAt(draft, Math.min(caret, draft.length)) : null;
  const tokenKey = token ? `${token.kind}:${token.start}:${token.query}` : null;
  const suggestions = useCompletions(sessionId, token);
  const showing = token !== null && suggestions.length > 0 && dismissed !== tokenKey;
  const empty = draft.trim() === '';
  const disabled = busy || unavailable !== undefined || (empty && !allowEmpty);

  const accept = (index: number) => {
    const choice = suggestions[index];
    if (!token || !choice) return;
    const next = applyCompletion(draft, token, choice.value);
    setDraft(draftKey, next.text);
    setCaret(next.caret);
    setHighlighted(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };
  const takeImages = (files: readonly File[]) => {
    const images = files.filter(isImageFile);
    if (!sessionId || images.length === 0) return false;
    void addImages(sessionId, images);
    return true;
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) onSubmit();
      }}
      onDrop={(event) => {
        // Images are for the message; anything else (a folder) goes on to the window's drop handler.
        if (takeImages([...event.dataTransfer.files])) {
          event.preventDefault();
          event.stopPropagation();
        }
      }}
    >
      {sessionId ? <PendingImages sessionId={sessionId} /> : null}
      <textarea
        ref={input}
        className="composer-input"
        aria-label="Message"
        aria-describedby={hintId}
        // A textbox that owns a list (not a combobox role): people and tests find it as the message box.
        aria-autocomplete={sessionId ? 'list' : undefined}
        aria-controls={showing ? listId : undefined}
        aria-activedescendant={showing ? `${listId}-${highlighted}` : undefined}
        placeholder={placeholder}
        rows={3}
        autoFocus={autoFocus}
        value={draft}
        onChange={(event) => {
          setDraft(draftKey, event.target.value);
          setCaret(event.target.selectionStart);
          setHighlighted(0);
          setDismissed(null);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onPaste={(event) => {
          if (takeImages([...event.clipboardData.files])) event.preventDefault();
        }}
        onBlur={() => setDismissed(tokenKey)}
        onFocus={() => setDismissed(null)}
        onKeyDown={(event) => {
          if (showing && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
            event.preventDefault();
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setHighlighted((index) => (index + step + suggestions.length) % suggestions.length);
            return;
          }
          if (showing && event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            setDismissed(tokenKey);
            return;
          }
          const complete = showing && suggestions[highlighted] && suggestions[highlighted]!.value !== token!.query;
          if (complete && (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey))) {
            event.preventDefault();
            accept(highlighted);
            return;
          }
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
          event.preventDefault();
          if (!disabled) onSubmit();
        }}
      />
      {showing ? <CompletionList id={listId} kind={token.kind} suggestions={suggestions} highlighted={highlighted} onAccept={accept} /> : null}
      <div className="composer-actions">
        <span id={hintId} className="composer-hint">
          Enter to send · Shift+Enter for a new line{sessionId ? ' · / for commands · @ for files · paste images' : ''}
        </span>
        {extra}
        <button type="submit" className="primary" disabled={disabled} title={unavailable}>
          {busy ? 'Sending…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
