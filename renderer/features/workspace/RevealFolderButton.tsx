/**
 * Shows a workspace folder in the OS file manager, in the desktop app only (a browser tab's
 * files live on another machine as far as the page knows). Main checks the folder is one of
 * the session's roots; a refusal becomes a notice.
 */
import { useCove } from '../../store';
import { ask } from '../../store/request';

/** What the person's OS calls its file manager. */
export function revealLabel(platform: string | undefined): string {
  if (platform === 'darwin') return 'Reveal in Finder';
  if (platform === 'win32') return 'Show in Explorer';
  return 'Show in Files';
}

export function RevealFolderButton({ sessionId, path, name }: { sessionId: string; path: string; name: string }) {
  const info = useCove((state) => state.appInfo);
  if (!info?.canReveal) return null;
  const label = revealLabel(info.platform);
  return (
    <button type="button" className="reveal-folder" aria-label={`${label}: ${name}`} title={label} onClick={() => void ask('workspace:reveal', { sessionId, path })}>
      ↗
    </button>
  );
}
