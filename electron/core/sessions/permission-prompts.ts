/**
 * Permission prompts waiting for a person. The permission engine asks through `ask`; the ask
 * becomes a `permissionRequest` event and waits until a host answers it (`answer`), or until
 * the run is cancelled, which denies it. Every answer becomes a `permissionDecision` event.
 */
import { randomUUID } from 'node:crypto';
import { makeEvent, type CoveEvent, type PermissionRequestEvent, type PermissionScope } from '../../../shared/events';

/** What a prompt shows: the `permissionRequest` event without its ids. */
export type PromptRequest = Omit<PermissionRequestEvent, 'type' | 'sessionId' | 'subagentId' | 'requestId'>;

export type PromptAnswer = { decision: 'allow'; scope: PermissionScope; rule?: string } | { decision: 'deny'; reason?: string };

export type Prompter = (request: PromptRequest, signal: AbortSignal) => Promise<PromptAnswer>;

interface Pending {
  event: PermissionRequestEvent;
  settle(answer: PromptAnswer): void;
}

export class PermissionPrompts {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly publish: (event: CoveEvent) => void,
    /** Called when a session starts or stops waiting for a person. */
    private readonly onWaiting: (sessionId: string, waiting: boolean) => void,
  ) {}

  /** The prompter of one session (and, for a subagent, with its id on the events). */
  prompterFor(sessionId: string, subagentId?: string): Prompter {
    return (request, signal) => this.ask(sessionId, subagentId, request, signal);
  }

  list(sessionId?: string): PermissionRequestEvent[] {
    return [...this.pending.values()].map((p) => p.event).filter((event) => sessionId === undefined || event.sessionId === sessionId);
  }

  /** Answers a waiting prompt; false when there is none with that id in that session. */
  answer(sessionId: string, requestId: string, answer: PromptAnswer): boolean {
    const pending = this.pending.get(requestId);
    if (!pending || pending.event.sessionId !== sessionId) return false;
    pending.settle(answer);
    return true;
  }

  private ask(sessionId: string, subagentId: string | undefined, request: PromptRequest, signal: AbortSignal): Promise<PromptAnswer> {
    const requestId = randomUUID();
    const base = subagentId ? { sessionId, subagentId } : { sessionId };
    const event = makeEvent('permissionRequest', { ...base, requestId, ...request });
    return new Promise<PromptAnswer>((resolve) => {
      const settle = (answer: PromptAnswer) => {
        if (!this.pending.delete(requestId)) return;
        signal.removeEventListener('abort', onAbort);
        this.publish(
          makeEvent('permissionDecision', {
            ...base,
            requestId,
            decision: answer.decision,
            scope: answer.decision === 'allow' ? answer.scope : null,
            rule: answer.decision === 'allow' ? (answer.rule ?? null) : null,
            ...(answer.decision === 'deny' && answer.reason ? { reason: answer.reason } : {}),
          }),
        );
        if (this.list(sessionId).length === 0) this.onWaiting(sessionId, false);
        resolve(answer);
      };
      const onAbort = () => settle({ decision: 'deny', reason: 'the run was stopped before anyone answered' });
      this.pending.set(requestId, { event, settle });
      this.onWaiting(sessionId, true);
      this.publish(event);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
