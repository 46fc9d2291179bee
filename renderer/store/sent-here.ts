/**
 * Prompts this window sent and has not seen come back yet, per session. A transcript jumps to a
 * prompt just sent only when this window sent it: a prompt typed in another tab or window (the
 * same session open twice) arrives like any other and leaves this one where the person is.
 * Not state to draw from: the transcript asks when a new prompt arrives.
 */
const awaiting = new Map<string, number>();

/** Before sending: a prompt of this session's is on its way from here. */
export function expectPrompt(sessionId: string): void {
  awaiting.set(sessionId, (awaiting.get(sessionId) ?? 0) + 1);
}

/** The send failed: no prompt of this window's will come. */
export function cancelExpectedPrompt(sessionId: string): void {
  const count = awaiting.get(sessionId) ?? 0;
  if (count <= 1) awaiting.delete(sessionId);
  else awaiting.set(sessionId, count - 1);
}

/** A new prompt arrived: whether it is one this window sent (and counts it as come). */
export function takeExpectedPrompt(sessionId: string): boolean {
  if (!awaiting.has(sessionId)) return false;
  cancelExpectedPrompt(sessionId);
  return true;
}
