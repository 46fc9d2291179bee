/**
 * Copies text to the clipboard and says so for a moment. The accessible name stays "Copy …"
 * (what people and tests look for); the outcome is announced through a polite status.
 */
import { useEffect, useState } from 'react';

const SHOWN_MS = 1500;

type Outcome = 'idle' | 'copied' | 'failed';

export function CopyButton({ text, what, className = '' }: { text: string | (() => string); what: string; className?: string }) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  useEffect(() => {
    if (outcome === 'idle') return;
    const timer = setTimeout(() => setOutcome('idle'), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setOutcome('copied');
    } catch {
      // The clipboard is refused outside a secure context or without focus; say so rather than pretend.
      setOutcome('failed');
    }
  };
  return (
    <>
      <button type="button" className={`copy-button ${className}`.trim()} aria-label={`Copy ${what}`} data-outcome={outcome} onClick={() => void copy()}>
        {outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'Copy failed' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {outcome === 'copied' ? `Copied ${what}` : outcome === 'failed' ? `Could not copy ${what}` : ''}
      </span>
    </>
  );
}
