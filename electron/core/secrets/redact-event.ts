/**
 * Redaction of events where they are published: every string of every event (a tool call's
 * arguments, a permission request's, a message's tool_use input, a hook's command, a prompt)
 * passes the session's secret set once, so none reaches the listeners, the store or the UI in
 * the clear, whichever part of the engine made it.
 */
import type { CoveEvent, MessageDelta } from '../../../shared/events';
import { NO_SECRETS, type SecretRedactor } from '../agent/types';

/**
 * How much of a streamed block is redacted again with each delta: a secret split over deltas is
 * seen whole once its end arrives, while a long message costs a bounded amount per delta.
 */
const STREAM_WINDOW = 2048;

/** Opaque base64 that must stay byte-exact (a picture, encrypted thinking). */
function opaque(node: Record<string, unknown>, key: string): boolean {
  return key === 'data' && (node.type === 'image' || node.type === 'redacted_thinking');
}

/** The value with every string redacted; the same object when nothing changed. */
function redactValue(node: unknown, redactor: SecretRedactor): unknown {
  if (typeof node === 'string') return node.length === 0 ? node : redactor.redact(node).text;
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    node.forEach((item, index) => {
      const redacted = redactValue(item, redactor);
      if (redacted !== item) (copy ??= node.slice())[index] = redacted;
    });
    return copy ?? node;
  }
  if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      if (key === 'type' || opaque(record, key)) continue;
      const item = record[key];
      const redacted = redactValue(item, redactor);
      if (redacted !== item) (copy ??= { ...record })[key] = redacted;
    }
    return copy ?? node;
  }
  return node;
}

interface OpenStream {
  /** The block's latest text, at most STREAM_WINDOW characters. */
  raw: string;
  /** `raw` redacted, as far as it was sent on. */
  sent: string;
}

function deltaText(delta: MessageDelta): string {
  return delta.type === 'text' ? delta.text : delta.type === 'thinking' ? delta.thinking : delta.partialJson;
}

function withText(delta: MessageDelta, text: string): MessageDelta {
  if (delta.type === 'text') return { ...delta, text };
  if (delta.type === 'thinking') return { ...delta, thinking: text };
  return { ...delta, partialJson: text };
}

function commonPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/**
 * `at`, or the start of the marker it falls in: when a longer match takes over from a shorter
 * one (`[REDACTED:secret-mention]` becoming `[REDACTED:github-token]`), the new marker goes out
 * whole after the old one, not as the old one's first half and the new one's tail.
 */
function markerSafe(text: string, at: number): number {
  const open = text.lastIndexOf('[REDACTED:', at - 1);
  return open !== -1 && text.indexOf(']', open) >= at ? open : at;
}

/**
 * The streams of one publisher: a delta is redacted together with the text before it in its
 * block, so a token split over deltas is replaced once its whole shape has arrived. What was
 * already sent cannot be taken back: a secret recognisable only from its end loses its tail,
 * and messageEnd carries the block redacted whole.
 */
export class EventRedaction {
  private readonly streams = new Map<string, Map<number, OpenStream>>();

  redact<E extends CoveEvent>(event: E, redactor: SecretRedactor): E {
    if (redactor === NO_SECRETS) return event;
    if (event.type === 'messageUpdate') {
      const delta = this.redactDelta(event.sessionId, event.messageId, event.delta, redactor);
      return delta === event.delta ? event : { ...event, delta };
    }
    if (event.type === 'messageEnd') this.streams.delete(`${event.sessionId}\0${event.messageId}`);
    if (event.type === 'agentEnd') this.forget(event.sessionId);
    return redactEvent(event, redactor);
  }

  private forget(sessionId: string): void {
    for (const key of this.streams.keys()) if (key.startsWith(`${sessionId}\0`)) this.streams.delete(key);
  }

  private redactDelta(sessionId: string, messageId: string, delta: MessageDelta, redactor: SecretRedactor): MessageDelta {
    const key = `${sessionId}\0${messageId}`;
    let blocks = this.streams.get(key);
    if (!blocks) this.streams.set(key, (blocks = new Map()));
    let open = blocks.get(delta.index);
    if (!open) blocks.set(delta.index, (open = { raw: '', sent: '' }));
    const text = deltaText(delta);
    // The whole delta is redacted with the window before it: a merged delta can be longer than
    // the window (the sequencer joins a frame's deltas first), and all of it must go out.
    const raw = open.raw + text;
    const after = redactor.redact(raw).text;
    const before = open.sent;
    if (raw.length > STREAM_WINDOW) {
      open.raw = raw.slice(raw.length - STREAM_WINDOW);
      open.sent = redactor.redact(open.raw).text;
    } else {
      open.raw = raw;
      open.sent = after;
    }
    // Whatever differs from what the window said before goes out again, redacted.
    const out = after.startsWith(before) ? after.slice(before.length) : after.slice(markerSafe(after, commonPrefix(after, before)));
    return out === text ? delta : withText(delta, out);
  }
}

/** One event with every string redacted (opaque base64 aside); the same object when nothing changed. */
export function redactEvent<E extends CoveEvent>(event: E, redactor: SecretRedactor): E {
  if (redactor === NO_SECRETS) return event;
  return redactValue(event, redactor) as E;
}
