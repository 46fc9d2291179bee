// What the scripted model server answers: plain data built with `reply` and `block`.
// model-wire.ts turns it into the bytes the Anthropic Messages API would send.

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

export type ScriptedBlock =
  | { type: 'text'; deltas: string[] }
  | { type: 'thinking'; deltas: string[]; signature: string }
  /** `json` is the tool input exactly as streamed; it may be invalid JSON on purpose. */
  | { type: 'tool_use'; id: string | undefined; name: string; json: string; deltas: string[] };

export interface MessageReply {
  kind: 'message';
  blocks: ScriptedBlock[];
  /** Defaults to 'tool_use' when a block calls a tool, else 'end_turn'. */
  stopReason: StopReason | undefined;
  stopSequence: string | null;
  usage: Partial<Usage>;
}

export interface ErrorReply {
  kind: 'error';
  status: number;
  errorType: ApiErrorType;
  message: string;
  headers: Record<string, string>;
}

/** `afterEvents` undefined: the stream breaks where message_delta would come, after all content. */
export interface StreamErrorReply {
  kind: 'stream-error';
  errorType: ApiErrorType;
  message: string;
  afterEvents: number | undefined;
  partial: MessageReply;
}

export interface CutReply {
  kind: 'cut';
  afterEvents: number | undefined;
  partial: MessageReply;
}

/** `afterEvents` undefined: not even response headers are sent. */
export interface HangReply {
  kind: 'hang';
  afterEvents: number | undefined;
  partial: MessageReply;
}

export interface DelayReply {
  kind: 'delay';
  milliseconds: number;
  reply: Reply;
}

/** SSE events sent verbatim, for replaying streams taken from the API's docs and the SDK's fixtures. */
export interface RawReply {
  kind: 'raw';
  /** The whole text/event-stream body. */
  body: string;
}

export type Reply = MessageReply | ErrorReply | StreamErrorReply | CutReply | HangReply | DelayReply | RawReply;

export interface ChunkOptions {
  /** How many deltas to split the content into; default one delta per 16 characters. */
  chunks?: number;
}

const defaultChunkLength = 16;

/** Splits on code points so no delta carries half a surrogate pair, as the real API never does. */
export function splitIntoChunks(text: string, chunks?: number): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const count = Math.min(points.length, Math.max(1, chunks ?? Math.ceil(points.length / defaultChunkLength)));
  const size = Math.ceil(points.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < points.length; start += size) pieces.push(points.slice(start, start + size).join(''));
  return pieces;
}

export const block = {
  text(text: string, options: ChunkOptions = {}): ScriptedBlock {
    return { type: 'text', deltas: splitIntoChunks(text, options.chunks) };
  },
  thinking(thinking: string, options: ChunkOptions & { signature?: string } = {}): ScriptedBlock {
    const signature = options.signature ?? Buffer.from(`signature:${thinking.length}`).toString('base64');
    return { type: 'thinking', deltas: splitIntoChunks(thinking, options.chunks), signature };
  },
  toolUse(name: string, input: Record<string, unknown>, options: ChunkOptions & { id?: string } = {}): ScriptedBlock {
    return block.rawToolUse(name, JSON.stringify(input), options);
  },
  /** Streams `json` verbatim as input_json deltas, for malformed-output tests. */
  rawToolUse(name: string, json: string, options: ChunkOptions & { id?: string } = {}): ScriptedBlock {
    return { type: 'tool_use', id: options.id, name, json, deltas: splitIntoChunks(json, options.chunks) };
  },
};

export interface MessageOptions {
  stopReason?: StopReason;
  stopSequence?: string;
  usage?: Partial<Usage>;
}

export interface PartialOptions {
  afterEvents?: number;
  /** The message whose events are sent before the break; default a short text reply. */
  partial?: MessageReply;
}

function defaultPartial(): MessageReply {
  return reply.text('This reply breaks off before it ends.', { chunks: 3 });
}

export const reply = {
  message(blocks: ScriptedBlock[], options: MessageOptions = {}): MessageReply {
    return {
      kind: 'message',
      blocks,
      stopReason: options.stopReason ?? (options.stopSequence === undefined ? undefined : 'stop_sequence'),
      stopSequence: options.stopSequence ?? null,
      usage: options.usage ?? {},
    };
  },
  text(text: string, options: ChunkOptions & MessageOptions = {}): MessageReply {
    return reply.message([block.text(text, options)], options);
  },
  /** A text reply of `count` deltas, each `delta` (default 'tok '), for throughput benchmarks. */
  manyDeltas(count: number, options: MessageOptions & { delta?: string } = {}): MessageReply {
    const deltas = new Array<string>(count).fill(options.delta ?? 'tok ');
    return reply.message([{ type: 'text', deltas }], options);
  },
  error(status: number, errorType: ApiErrorType, message: string, options: { retryAfter?: number; headers?: Record<string, string> } = {}): ErrorReply {
    const headers = { ...options.headers };
    if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
    return { kind: 'error', status, errorType, message, headers };
  },
  /** An `event: error` inside a 200 stream, as the API sends when it overloads mid-reply. */
  streamError(errorType: ApiErrorType, message: string, options: PartialOptions = {}): StreamErrorReply {
    const partial = options.partial ?? defaultPartial();
    return { kind: 'stream-error', errorType, message, afterEvents: options.afterEvents, partial };
  },
  /** Destroys the socket after `afterEvents` SSE events (default: all content, before message_delta). */
  cut(options: PartialOptions = {}): CutReply {
    return { kind: 'cut', afterEvents: options.afterEvents, partial: options.partial ?? defaultPartial() };
  },
  /** Never finishes answering; ends when the client disconnects or the server closes. */
  hang(options: PartialOptions = {}): HangReply {
    return { kind: 'hang', afterEvents: options.afterEvents, partial: options.partial ?? defaultPartial() };
  },
  delay(milliseconds: number, inner: Reply): DelayReply {
    return { kind: 'delay', milliseconds, reply: inner };
  },
  /** Each event's `data` is sent as JSON, or as it is when it is a string (malformed data on purpose). */
  raw(events: Array<{ event: string; data: unknown }>): RawReply {
    return { kind: 'raw', body: events.map(({ event, data }) => `event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('') };
  },
  /** A recorded text/event-stream body, sent byte for byte. */
  sse(body: string): RawReply {
    return { kind: 'raw', body };
  },
};
