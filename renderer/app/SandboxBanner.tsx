/** Says, once per window, that bash has no OS sandbox here (so every bash call asks); silent otherwise. */
import { useState } from 'react';
import { useCove } from '../store';

export function SandboxBanner() {
  const notice = useCove((state) => state.appInfo?.sandboxNotice ?? null);
  const [dismissed, setDismissed] = useState(false);
  if (!notice || dismissed) return null;
  return (
    <div role="alert" className="banner banner-warning" title={notice}>
      <span>{notice}</span>{' '}
      <button type="button" className="small" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </div>
  );
}
