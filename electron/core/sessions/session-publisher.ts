/**
 * Publishing and subscription: every event of every session is numbered, redacted, queued for
 * the store and only then handed to subscribers (the CLI, the desktop window, browser tabs);
 * session records go to their own subscribers whenever they change.
 */
import { makeEvent, type CoveEvent } from '../../../shared/events';
import { todosOfResult } from '../tools/todo-write';
import { isRedacted } from '../agent/redaction';
import type { SecretRedactor } from '../agent/types';
import type { SessionRecord, Store } from '../store';
import type { SessionHooks } from '../hooks/session-hooks';
import { EventRedaction } from '../secrets/redact-event';
import type { EventWriter } from './event-writer';
import { EventSequencer, type SequencedEvent } from './event-sequencer';
import { SubagentCalls } from './subagent-calls';

export type EventListener = (event: SequencedEvent) => void;
export type SessionListener = (session: SessionRecord) => void;

export interface PublisherOptions {
  store: Store;
  log(message: string): void;
  /** The writer of a session that has a live agent; other sessions' events are stored at once. */
  writerOf(sessionId: string): EventWriter | undefined;
  /** The secret set that redacts a session's events, as far as it is scanned. */
  secretsOf(sessionId: string): SecretRedactor;
  hooksOf(sessionId: string): SessionHooks | undefined;
}

export class SessionPublisher {
  private readonly listeners = new Set<EventListener>();
  private readonly sessionListeners = new Set<SessionListener>();
  readonly subagentCalls = new SubagentCalls();
  readonly sequencer: EventSequencer;
  private readonly eventRedaction = new EventRedaction();
  private readonly log: (message: string) => void;

  constructor(private readonly options: PublisherOptions) {
    this.log = options.log;
    this.sequencer = new EventSequencer(
      (sessionId) => options.store.lastEventSeq(sessionId),
      (event) => this.deliver(event),
      undefined,
      // A tool's update was redacted with this same set when it was made (agent/redaction.ts):
      // redacting its 32 KB again per update was most of the publishing of a command's flood.
      (event) => (event.type === 'toolExecutionUpdate' && isRedacted(event.partialResult) ? event : this.eventRedaction.redact(event, options.secretsOf(event.sessionId))),
    );
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeSessions(listener: SessionListener): () => void {
    this.sessionListeners.add(listener);
    return () => this.sessionListeners.delete(listener);
  }

  notify(id: string): SessionRecord | undefined {
    const session = this.options.store.getSession(id);
    if (!session) return undefined;
    for (const listener of this.sessionListeners) {
      try {
        listener(session);
      } catch (error) {
        this.log(`a session listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
    return session;
  }

  publish(event: CoveEvent): void {
    this.subagentCalls.note(event);
    this.sequencer.push(event);
  }

  private deliver(event: SequencedEvent): void {
    const writer = this.options.writerOf(event.sessionId);
    // Queued for the store before anyone is told; the queue is written within this tick.
    if (writer) writer.push(event);
    else this.options.store.appendEvents(event.sessionId, [event]);
    if (event.type === 'turnEnd') {
      this.options.store.addUsage(event.sessionId, event.usage, event.cost?.total ?? 0);
      this.notify(event.sessionId);
    }
    if (event.type === 'agentEnd') writer?.flush();
    if (event.type === 'permissionRequest') this.options.hooksOf(event.sessionId)?.notification(`Cove needs your permission to use ${event.toolName}`);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`an event listener failed on ${event.type}: ${(error as Error)?.message ?? String(error)}`);
      }
    }
    const todos = event.type === 'toolExecutionEnd' ? todosOfResult(event.toolName, event.isError, event.result.details) : undefined;
    if (todos) this.publish(makeEvent('todoUpdate', { sessionId: event.sessionId, ...(event.subagentId ? { subagentId: event.subagentId } : {}), todos }));
  }
}
