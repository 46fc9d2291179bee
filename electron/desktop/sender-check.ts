/**
 * The check every IPC request passes before it reaches the dispatcher (ARCHITECTURE: the sender
 * is a window we created, in its main frame, showing our own origin). A page that navigated
 * elsewhere, an iframe, or contents we did not create get `unauthorized`.
 */
import { isAppUrl } from './app-origin';

export interface SenderFacts {
  /** Whether the sending web contents belong to a window this app created. */
  ours: boolean;
  /** The sending frame; Electron gives null once it has navigated away or been destroyed. */
  frame: { url: string; isMainFrame: boolean } | null;
}

/** Why the sender is refused, or null when it may call the contract. */
export function senderProblem(facts: SenderFacts): string | null {
  if (!facts.ours) return 'the request came from web contents this app did not create';
  if (!facts.frame) return 'the requesting frame is gone (it navigated away or closed)';
  if (!facts.frame.isMainFrame) return 'the request came from a subframe, not the window itself';
  if (!isAppUrl(facts.frame.url)) return `the requesting page is not Cove's own (${describeOrigin(facts.frame.url)})`;
  return null;
}

function describeOrigin(raw: string): string {
  try {
    const url = new URL(raw);
    return url.host ? `${url.protocol}//${url.host}` : url.protocol;
  } catch {
    return 'an unparseable URL';
  }
}
