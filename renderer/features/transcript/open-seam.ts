/**
 * Where a redraw from `session:open` meets the live stream. Live events carry no sequence
 * number, so which of them the stored list already holds has to be worked out from the hosts'
 * timing (electron/core/api/host-events.ts, sessions/event-writer.ts):
 *
 * - Events other than text deltas are sent the moment they happen and stored a tick later. So
 *   one the stored list holds was received before the open's answer: the events held during
 *   the open start with those the stored list ends with. They are matched and dropped.
 * - Deltas are stored a tick later but sent up to a frame (16 ms) later, merged. A message the
 *   stored list already ended has all its text there: its live deltas are dropped. For the
 *   block still streaming, the stored text ends partway into the live text sent around the
 *   open: the live text of that block is held back (a "seam") until its first chunk sent after
 *   the answer, or until the stream moves on, and only what goes past the stored text is kept.
 */
import type { CoveEvent, MessageDelta, MessageUpdateEvent } from '../../../shared/events';

export interface Seam {
  messageId: string;
  index: number;
  /** The block's text in the stored list. */
  stored: string;
  /** Live text of the block since the open, not yet shown. */
  live: string;
  /** A live delta of the block, to carry what is kept. */
  carrier: MessageUpdateEvent | null;
}

/**
 * The events held while `session:open` was on its way, less what `stored` already holds, and
 * the seams to pass live events through. `streaming`: the session was running when opened.
 */
export function settleHeld(stored: readonly CoveEvent[], held: readonly CoveEvent[], streaming: boolean): { events: CoveEvent[]; seams: Seam[] } {
  // Nothing to settle is the common case; a long session's stored list is worth not walking.
  if (held.length === 0 && !streaming) return { events: [], seams: [] };
  const covered = coveredCount(stored, held);
  const ended = new Set<string>();
  for (const event of stored) if (event.type === 'messageEnd') ended.add(event.messageId);
  let others = 0;
  const fresh = held.filter((event) => {
    if (event.type === 'messageUpdate') return !ended.has(event.messageId);
    others += 1;
    return others > covered;
  });
  const seams = streaming ? openSeams(stored, ended) : [];
  const passed = passSeams(seams, fresh, false);
  return { events: passed.events, seams: passed.seams };
}

/**
 * Live events through the open seams. `afterAnswer`: these arrived after the open's answer,
 * so a seam's next chunk was sent after the stored list was read and settles it.
 */
export function passSeams(seams: readonly Seam[], events: readonly CoveEvent[], afterAnswer = true): { events: CoveEvent[]; seams: Seam[] } {
  if (seams.length === 0) return { events: events.slice(), seams: [] };
  let open = seams.slice();
  const out: CoveEvent[] = [];
  const close = (seam: Seam, keepLive: boolean) => {
    open = open.filter((other) => other !== seam);
    if (!keepLive || !seam.carrier) return;
    const rest = seam.live.slice(overlap(seam.stored, seam.live));
    if (rest !== '') out.push({ ...seam.carrier, delta: withText(seam.carrier.delta, rest) });
  };
  for (const event of events) {
    if (event.subagentId !== undefined) {
      out.push(event);
      continue;
    }
    const seam = event.type === 'messageUpdate' ? open.find((candidate) => candidate.messageId === event.messageId && candidate.index === event.delta.index) : undefined;
    if (seam && event.type === 'messageUpdate') {
      const grown: Seam = { ...seam, live: seam.live + textOf(event.delta), carrier: seam.carrier ?? event };
      open = open.map((other) => (other === seam ? grown : other));
      if (afterAnswer) close(grown, true);
      continue;
    }
    // Its own start again (a stored event seen live) says nothing about the block.
    if (event.type !== 'messageStart' || !open.some((other) => other.messageId === event.messageId)) {
      // The stream moved on: each open block has all its live text by now (deltas are sent in
      // order); an end of its message carries the whole text, so nothing held is needed.
      for (const other of open.slice()) close(other, !(event.type === 'messageEnd' && event.messageId === other.messageId));
    }
    out.push(event);
  }
  return { events: out, seams: open };
}

/** How many of the held non-delta events the stored list ends with. */
function coveredCount(stored: readonly CoveEvent[], held: readonly CoveEvent[]): number {
  const heldOthers = held.filter((event) => event.type !== 'messageUpdate');
  if (heldOthers.length === 0) return 0;
  const tail: string[] = [];
  for (let index = stored.length - 1; index >= 0 && tail.length < heldOthers.length; index--) {
    if (stored[index]!.type !== 'messageUpdate') tail.unshift(canonical(stored[index]!));
  }
  const heads = heldOthers.slice(0, tail.length).map(canonical);
  for (let count = Math.min(tail.length, heads.length); count > 0; count--) {
    const start = tail.length - count;
    if (heads.slice(0, count).every((head, offset) => head === tail[start + offset])) return count;
  }
  return 0;
}

/** The blocks of the main agent's last message when the stored list has not ended it. */
function openSeams(stored: readonly CoveEvent[], ended: ReadonlySet<string>): Seam[] {
  let messageId: string | null = null;
  for (let index = stored.length - 1; index >= 0 && messageId === null; index--) {
    const event = stored[index]!;
    if (event.subagentId === undefined && (event.type === 'messageStart' || event.type === 'messageUpdate' || event.type === 'messageEnd')) messageId = event.messageId;
  }
  if (messageId === null || ended.has(messageId)) return [];
  const blocks = new Map<number, string>();
  for (const event of stored) {
    if (event.type === 'messageUpdate' && event.messageId === messageId) blocks.set(event.delta.index, (blocks.get(event.delta.index) ?? '') + textOf(event.delta));
  }
  return [...blocks].map(([index, text]) => ({ messageId: messageId!, index, stored: text, live: '', carrier: null }));
}

/** The longest start of `live` that `stored` ends with. */
export function overlap(stored: string, live: string): number {
  for (let length = Math.min(stored.length, live.length); length > 0; length--) {
    if (stored.endsWith(live.slice(0, length))) return length;
  }
  return 0;
}

function textOf(delta: MessageDelta): string {
  return delta.type === 'text' ? delta.text : delta.type === 'thinking' ? delta.thinking : delta.partialJson;
}

function withText(delta: MessageDelta, text: string): MessageDelta {
  if (delta.type === 'text') return { ...delta, text };
  if (delta.type === 'thinking') return { ...delta, thinking: text };
  return { ...delta, partialJson: text };
}

/** An event as JSON with sorted keys and without the stored `seq`, for comparing stored and live copies. */
function canonical(event: CoveEvent): string {
  const { seq: _seq, ...fields } = event as CoveEvent & { seq?: number };
  return JSON.stringify(fields, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((name) => [name, record[name]]),
    );
  });
}
