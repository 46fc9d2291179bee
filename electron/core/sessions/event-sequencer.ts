/**
 * Gives each published event its identity: the session's next `seq` (SPEC §4). Streamed deltas
 * are coalesced here, before they are numbered, for at most one frame (16 ms) per block, so the
 * one merged event is what the store keeps and what every host sends, under the same number:
 * a window merges what it loaded with what streams in by `seq` alone, never by timing. Any
 * other event of the session first releases the delta it holds, so order is kept.
 */
import type { CoveEvent, MessageUpdateEvent } from '../../../shared/events';
import { mergeDeltas } from './delta-merge';

/** A published event: it carries its position in the session's log. */
export type SequencedEvent = CoveEvent & { seq: number };

export const FRAME_MS = 16;

export class EventSequencer {
  private readonly lastSeq = new Map<string, number>();
  private readonly held = new Map<string, MessageUpdateEvent>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The highest seq the store holds for a session; read once, when the session is first numbered. */
    private readonly storedSeq: (sessionId: string) => number,
    private readonly deliver: (event: SequencedEvent) => void,
    private readonly frameMs = FRAME_MS,
    /**
     * Applied to each event as it is numbered, after deltas are merged: redaction runs once per
     * merged delta (a few per frame) rather than once per network chunk, which on a 20,000-delta
     * reply was most of the run's time. Nothing leaves the sequencer without it.
     */
    private readonly prepare: (event: CoveEvent) => CoveEvent = (event) => event,
  ) {}

  push(event: CoveEvent): void {
    if (event.type !== 'messageUpdate') {
      this.release(event.sessionId);
      this.stamp(event);
      return;
    }
    const waiting = this.held.get(event.sessionId);
    const merged = waiting ? mergeDeltas(waiting, event) : null;
    if (merged) {
      this.held.set(event.sessionId, merged);
      return;
    }
    // Another block (a subagent's, the next content block): the one held goes first.
    this.release(event.sessionId);
    this.held.set(event.sessionId, event);
    this.timer ??= setTimeout(() => this.releaseAll(), this.frameMs).unref();
  }

  /** Numbers and delivers what a session holds now (before a read of its log, at a run's end). */
  release(sessionId: string): void {
    const waiting = this.held.get(sessionId);
    if (!waiting) return;
    this.held.delete(sessionId);
    this.stamp(waiting);
  }

  releaseAll(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const sessionId of [...this.held.keys()]) this.release(sessionId);
  }

  /** The seq of the session's latest published event (0 for none). */
  current(sessionId: string): number {
    return this.lastSeq.get(sessionId) ?? this.storedSeq(sessionId);
  }

  /**
   * Reads the store again for a session that holds nothing: another process (`cove run
   * --resume` beside the app) may have added to its log since, and numbers go on after those.
   */
  resync(sessionId: string): void {
    if (this.held.has(sessionId) || !this.lastSeq.has(sessionId)) return;
    this.lastSeq.set(sessionId, Math.max(this.lastSeq.get(sessionId)!, this.storedSeq(sessionId)));
  }

  /** A deleted session: a new one with the same id would start again from the store. */
  forget(sessionId: string): void {
    this.held.delete(sessionId);
    this.lastSeq.delete(sessionId);
  }

  private stamp(event: CoveEvent): void {
    const seq = this.current(event.sessionId) + 1;
    this.lastSeq.set(event.sessionId, seq);
    this.deliver({ ...this.prepare(event), seq, at: event.at ?? Date.now() });
  }
}
