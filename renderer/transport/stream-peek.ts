/**
 * Streamed events (text deltas, tool output) are most of what a busy host sends, in frames of
 * up to megabytes, and a page applies only those of the session it shows; parsing the others
 * would cost it tens of milliseconds a frame for nothing. A large frame is told apart by its
 * first characters (the server writes a frame's fields in a fixed order,
 * electron/web/api-socket.ts), so it can be dropped unread. A frame that starts any other way
 * is parsed like every other.
 */

/** Smaller frames parse in well under a millisecond: not worth a look. */
export const PEEK_FROM_CHARS = 64 * 1024;

const STREAMED_HEAD = /^\{"type":"event","event":\{"kind":"agent","event":\{"type":"(messageUpdate|toolExecutionUpdate)","sessionId":("(?:[^"\\]|\\.)*")/;

/** The session of a large streamed-event frame; null for any other frame. */
export function streamedSessionOf(data: string): string | null {
  if (data.length < PEEK_FROM_CHARS) return null;
  const match = STREAMED_HEAD.exec(data.slice(0, 1024));
  if (!match) return null;
  try {
    return JSON.parse(match[2]!) as string;
  } catch {
    return null;
  }
}
