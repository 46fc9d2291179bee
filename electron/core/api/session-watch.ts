/**
 * Which sessions' streams a window or tab gets. Text deltas, tool output and progress lines
 * are most of what a busy host sends, and a window draws them only for the session it shows;
 * so each connection says which sessions it watches (the whole set each time) and gets their
 * high-rate events only, while every other event (session records, permission prompts, a run's
 * end) still reaches every window for the sessions list. Both transports keep one per peer.
 */
import { STREAM_EVENT_TYPES, watchInput, type HostEvent, type Response } from '../../../shared/contract';

/** The session of a high-rate event; null for an event every window gets. */
export function streamedSession(event: HostEvent): string | null {
  return event.kind === 'agent' && STREAM_EVENT_TYPES.has(event.event.type) ? event.event.sessionId : null;
}

export class SessionWatch {
  private watching: ReadonlySet<string> = new Set();

  /** Takes a `watchInput`; a malformed one changes nothing and is answered with why. */
  set(input: unknown): Response<{ watching: string[] }> {
    const parsed = watchInput.safeParse(input ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, error: { code: 'invalidInput', message: `watch: ${issue.path.join('.') || 'input'}: ${issue.message}` } };
    }
    this.watching = new Set(parsed.data.sessionIds);
    return { ok: true, value: { watching: [...this.watching] } };
  }

  wants(event: HostEvent): boolean {
    const session = streamedSession(event);
    return session === null || this.watching.has(session);
  }
}
