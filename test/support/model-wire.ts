// The Anthropic Messages API wire format: server-sent events for streamed replies, a message
// JSON for plain ones, and the error body. Field order and shapes follow what the API sends.
import type { ApiErrorType, MessageReply, ScriptedBlock, StopReason, Usage } from './model-replies';

export interface WireContext {
  /** Echoed from the request, as the API does. */
  model: string;
  /** Used when the reply does not fix input_tokens. */
  inputTokens: number;
}

let messageCount = 0;
let toolUseCount = 0;
let requestCount = 0;

// Counters rather than random ids so a failing test names the same ids on every run.
function nextId(prefix: string, count: number): string {
  return `${prefix}_scripted${String(count).padStart(6, '0')}`;
}

export function nextRequestId(): string {
  return nextId('req', ++requestCount);
}

const errorStatuses: Record<ApiErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function statusForErrorType(errorType: ApiErrorType): number {
  return errorStatuses[errorType];
}

export function errorBody(errorType: ApiErrorType, message: string, requestId: string) {
  return { type: 'error', error: { type: errorType, message }, request_id: requestId };
}

export function sseEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function resolveUsage(message: MessageReply, context: WireContext): Usage {
  const outputCharacters = message.blocks.reduce((total, block) => total + block.deltas.reduce((sum, delta) => sum + delta.length, 0), 0);
  return {
    input_tokens: message.usage.input_tokens ?? context.inputTokens,
    cache_creation_input_tokens: message.usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: message.usage.cache_read_input_tokens ?? 0,
    output_tokens: message.usage.output_tokens ?? Math.max(1, Math.ceil(outputCharacters / 4)),
  };
}

function resolveStopReason(message: MessageReply): StopReason {
  return message.stopReason ?? (message.blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function toolUseIds(blocks: ScriptedBlock[]): (string | undefined)[] {
  return blocks.map((block) => (block.type === 'tool_use' ? (block.id ?? nextId('toolu', ++toolUseCount)) : undefined));
}

function startBlock(block: ScriptedBlock, toolUseId: string | undefined) {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: toolUseId, name: block.name, input: {} };
  }
}

function deltaEvents(block: ScriptedBlock, index: number): string[] {
  // Identical deltas (long benchmark replies) share one serialised event.
  const serialised = new Map<string, string>();
  const encode = (delta: string) => {
    let event = serialised.get(delta);
    if (event === undefined) {
      const payload =
        block.type === 'text'
          ? { type: 'text_delta', text: delta }
          : block.type === 'thinking'
            ? { type: 'thinking_delta', thinking: delta }
            : { type: 'input_json_delta', partial_json: delta };
      event = sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: payload });
      serialised.set(delta, event);
    }
    return event;
  };
  // The API opens every tool input with an empty partial_json.
  const deltas = block.type === 'tool_use' ? ['', ...block.deltas] : block.deltas;
  const events = deltas.map(encode);
  if (block.type === 'thinking') {
    events.push(
      sseEvent('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      }),
    );
  }
  return events;
}

/** Every SSE event of a streamed reply, in order, each a complete `event:`/`data:` record. */
export function streamEvents(message: MessageReply, context: WireContext): string[] {
  const usage = resolveUsage(message, context);
  const ids = toolUseIds(message.blocks);
  const startUsage = { ...usage, output_tokens: Math.min(1, usage.output_tokens) };
  const events = [
    sseEvent('message_start', {
      type: 'message_start',
      message: {
        id: nextId('msg', ++messageCount),
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: startUsage,
      },
    }),
  ];
  const ping = sseEvent('ping', { type: 'ping' });
  if (message.blocks.length === 0) events.push(ping);
  message.blocks.forEach((block, index) => {
    events.push(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: startBlock(block, ids[index]) }));
    if (index === 0) events.push(ping);
    events.push(...deltaEvents(block, index));
    events.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: resolveStopReason(message), stop_sequence: message.stopSequence },
      usage,
    }),
  );
  events.push(sseEvent('message_stop', { type: 'message_stop' }));
  return events;
}

/** How many events precede message_delta: where a broken stream stops by default. */
export function contentEventCount(events: string[]): number {
  return events.length - 2;
}

/** The JSON body of a non-streamed reply. Throws when a tool input is not valid JSON. */
export function messageBody(message: MessageReply, context: WireContext) {
  const ids = toolUseIds(message.blocks);
  const content = message.blocks.map((block, index) => {
    const joined = block.deltas.join('');
    switch (block.type) {
      case 'text':
        return { type: 'text', text: joined };
      case 'thinking':
        return { type: 'thinking', thinking: joined, signature: block.signature };
      case 'tool_use': {
        let input: unknown;
        try {
          input = JSON.parse(block.json);
        } catch {
          throw new Error(`tool_use block ${index} (${block.name}) has invalid JSON input; it can only be streamed`);
        }
        return { type: 'tool_use', id: ids[index], name: block.name, input };
      }
    }
  });
  return {
    id: nextId('msg', ++messageCount),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: resolveStopReason(message),
    stop_sequence: message.stopSequence,
    usage: resolveUsage(message, context),
  };
}
