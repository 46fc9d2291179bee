/**
 * One provider request with retries: the agent loop and compaction both ask the model through
 * this, so a transient failure is retried (and published as `providerRetry`) the same way for both.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { makeEvent, type CoveEvent } from '../../../shared/events';
import { MessageAssembler, streamMessage, type AssistantReply, type ProviderRequest } from './provider';
import { describeFailure, retryDelay, sleep, type FailureKind, type RetryPolicy } from './retry';
import type { Logger } from './tool-sources';

export class ProviderFailure extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind | undefined,
  ) {
    super(message);
  }
}

export interface RequestHost {
  client: Anthropic;
  retry: RetryPolicy;
  log: Logger;
  emit(event: CoveEvent): void;
  base(): { sessionId: string; subagentId?: string };
  /** Told of each visible reply's assembler, so a cancel can keep the text already shown. */
  streaming(assembler: MessageAssembler): void;
}

/** A visible request streams its reply as message events; a compaction's summary is not shown. */
export async function requestReply(host: RequestHost, request: ProviderRequest, signal: AbortSignal, visible: boolean): Promise<AssistantReply> {
  const client = host.client;
  for (let attempt = 1; ; attempt++) {
    let messageId = '';
    const assembler = new MessageAssembler({
      onUnknown: (message) => host.log(message),
      onStart: (id) => {
        messageId = id;
        if (visible) host.emit(makeEvent('messageStart', { ...host.base(), messageId: id, role: 'assistant' }));
      },
      onDelta: (delta) => {
        if (visible) host.emit(makeEvent('messageUpdate', { ...host.base(), messageId, delta }));
      },
    });
    if (visible) host.streaming(assembler);
    try {
      const reply = await streamMessage(client, request, assembler, signal);
      if (visible) {
        host.emit(makeEvent('messageEnd', { ...host.base(), messageId, content: reply.content, providerStopReason: reply.stopReason, usage: reply.usage }));
      }
      return reply;
    } catch (error) {
      if (signal.aborted) throw error;
      const failure = describeFailure(error, client.baseURL);
      if (!failure.retryable || attempt > host.retry.maxRetries) {
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        throw new ProviderFailure(`${failure.message}${tries}`, failure.kind);
      }
      const delayMs = retryDelay(attempt, host.retry, failure.retryAfterMs);
      host.emit(makeEvent('providerRetry', { ...host.base(), attempt: attempt + 1, maxAttempts: host.retry.maxRetries + 1, error: failure.message, delayMs }));
      await sleep(delayMs, signal);
    }
  }
}
