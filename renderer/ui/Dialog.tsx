/**
 * A modal on the native <dialog>: the browser traps focus, makes the page behind inert, and
 * closes on Escape (reported through onClose so the store stays the source of truth).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { dialogClosed, dialogOpened } from './dialog-stack';

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    if (!open) return;
    dialogOpened(dialog);
    return () => dialogClosed(dialog);
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {open ? <div className="dialog-body">{children}</div> : null}
    </dialog>
  );
}
