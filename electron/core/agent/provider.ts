/**
 * One streamed request to the Anthropic Messages API through the real SDK. Raw stream events
 * are folded into an assistant message as they arrive (the SDK's MessageStream helper would
 * re-accumulate every delta a second time). Deltas are handed on once per network read: the
 * consecutive deltas of one block that one read brings are joined into one (see `MessageAssembler`),
 * so a 20,000-delta reply is a few dozen events to build, publish and merge, not 20,000. Blocks are kept
 * exactly as the API sent them, because thinking and server tool blocks must go back unchanged;
 * event, block and delta types Cove does not know are logged once each and skipped.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantBlock, MessageDelta, Usage } from '../../../shared/events';
import { StreamCutError } from './retry';

export interface ProviderRequest {
  model: string;
  maxTokens: number;
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[];
  messages: Anthropic.MessageParam[];
  thinking?: Anthropic.ThinkingConfigParam;
}

export interface AssistantReply {
  id: string;
  content: AssistantBlock[];
  stopReason: string | null;
  usage: Usage;
  /** tool_use ids whose streamed arguments were not valid JSON, with the parse error. */
  invalidToolInput: Map<string, string>;
}

export interface StreamHandlers {
  onStart(messageId: string): void;
  onDelta(delta: MessageDelta): void;
  onUnknown?(message: string): void;
}

type Building =
  | { type: 'text'; text: string; citations?: unknown[] }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; input: unknown }
  | { type: 'server_tool_use'; id: string; name: string; json: string; input: unknown }
  | { type: 'server_result'; block: Extract<AssistantBlock, { tool_use_id: string }> };

/** Wire blocks as loose records: the stream may carry fields and types newer than the SDK's types. */
type WireBlock = { type: string; [field: string]: unknown };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Folds raw stream events into a message; `partial()` gives what arrived so far. */
export class MessageAssembler {
  id = '';
  stopReason: string | null = null;
  finished = false;
  readonly usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  private readonly blocks: Array<Building | undefined> = [];
  private readonly invalid = new Map<string, string>();
  private readonly reported = new Set<string>();
  /** Deltas received but not yet handed on: one block's, joined. Owned here until `flush`. */
  private pending: MessageDelta | undefined;
  private flushing: NodeJS.Immediate | undefined;

  constructor(private readonly handlers: StreamHandlers) {}

  /**
   * Hands on the delta held. It runs on its own once the events of the current network read are
   * all parsed (the SDK yields them in microtasks; an immediate runs after those), so holding
   * adds no wait: a slow stream still hands on each delta as it comes, a fast one in batches.
   */
  flush(): void {
    clearImmediate(this.flushing);
    this.flushing = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.handlers.onDelta(pending);
  }

  /** Joins a delta's text to the held delta when it continues the same block; false when it does not. */
  private joined(index: number, type: MessageDelta['type'], text: string): boolean {
    const pending = this.pending;
    if (!pending || pending.index !== index || pending.type !== type) return false;
    if (pending.type === 'text') pending.text += text;
    else if (pending.type === 'thinking') pending.thinking += text;
    else pending.partialJson += text;
    return true;
  }

  /** Holds the first delta of a run of one block's deltas, handing on the one held before. */
  private hold(delta: MessageDelta): void {
    this.flush();
    this.pending = delta;
    this.flushing = setImmediate(() => this.flush());
  }

  accept(event: Anthropic.RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start': {
        this.id = event.message.id;
        this.readUsage(event.message.usage);
        this.handlers.onStart(this.id);
        break;
      }
      case 'content_block_start':
        this.blocks[event.index] = this.startBlock(event.content_block);
        break;
      case 'content_block_delta':
        this.applyDelta(event.index, event.delta);
        break;
      case 'content_block_stop': {
        const block = this.blocks[event.index];
        if (block?.type === 'tool_use' || block?.type === 'server_tool_use') this.finishToolUse(block);
        break;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.readUsage(event.usage);
        break;
      case 'message_stop':
        this.finished = true;
        break;
      default:
        this.unknown(`stream event type "${(event as { type?: unknown }).type}"`);
    }
  }

  private unknown(what: string): void {
    if (this.reported.has(what)) return;
    this.reported.add(what);
    this.handlers.onUnknown?.(`the provider sent a ${what} Cove does not know; it is skipped`);
  }

  /** The complete reply; throws when the stream ended before `message_stop`. */
  reply(): AssistantReply {
    if (!this.finished) throw new StreamCutError(this.id ? 'no message_stop' : 'no message_start');
    return { id: this.id, content: this.partial(), stopReason: this.stopReason, usage: { ...this.usage }, invalidToolInput: this.invalid };
  }

  /** Whatever finished arriving, for a reply that was cancelled mid-stream: text and finished calls. */
  partial(): AssistantBlock[] {
    const out: AssistantBlock[] = [];
    for (const block of this.blocks) {
      if (!block) continue;
      if (block.type === 'tool_use' || block.type === 'server_tool_use') out.push({ type: block.type, id: block.id, name: block.name, input: block.input });
      else if (block.type === 'text') {
        if (block.text) out.push(block.citations ? { type: 'text', text: block.text, citations: block.citations } : { type: 'text', text: block.text });
      } else if (block.type === 'server_result') out.push(block.block);
      else out.push(block);
    }
    return out;
  }

  private startBlock(raw: Anthropic.RawContentBlockStartEvent['content_block']): Building | undefined {
    const block = raw as unknown as WireBlock;
    switch (block.type) {
      case 'text':
        return { type: 'text', text: text(block.text), ...(Array.isArray(block.citations) && block.citations.length > 0 ? { citations: [...block.citations] } : {}) };
      case 'thinking':
        // The start block may carry no signature at all: it then arrives in a signature_delta.
        return { type: 'thinking', thinking: text(block.thinking), signature: text(block.signature) };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: text(block.data) };
      case 'tool_use':
      case 'server_tool_use':
        return { type: block.type, id: text(block.id), name: text(block.name), json: '', input: block.input ?? {} };
      default:
        if (block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
          return { type: 'server_result', block: structuredClone(block) as Extract<AssistantBlock, { tool_use_id: string }> };
        }
        this.unknown(`content block type "${block.type}"`);
        return undefined;
    }
  }

  private applyDelta(index: number, delta: Anthropic.RawContentBlockDeltaEvent['delta']): void {
    const block = this.blocks[index];
    if (!block) return;
    if (delta.type === 'citations_delta' && block.type === 'text') {
      (block.citations ??= []).push(delta.citation);
    } else if (delta.type === 'input_json_delta' && block.type === 'server_tool_use') {
      block.json += delta.partial_json;
    } else if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += delta.text;
      if (!this.joined(index, 'text', delta.text)) this.hold({ type: 'text', index, text: delta.text });
    } else if (delta.type === 'input_json_delta' && block.type === 'tool_use') {
      block.json += delta.partial_json;
      if (!this.joined(index, 'toolCallDelta', delta.partial_json)) this.hold({ type: 'toolCallDelta', index, toolCallId: block.id, toolName: block.name, partialJson: delta.partial_json });
    } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
      block.thinking += delta.thinking;
      if (!this.joined(index, 'thinking', delta.thinking)) this.hold({ type: 'thinking', index, thinking: delta.thinking });
    } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
      block.signature += text(delta.signature);
    } else {
      this.unknown(`delta type "${(delta as { type?: unknown }).type}" in a ${block.type} block`);
    }
  }

  private finishToolUse(block: Extract<Building, { type: 'tool_use' | 'server_tool_use' }>): void {
    if (block.json.trim() === '') return;
    try {
      const parsed: unknown = JSON.parse(block.json);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        this.invalid.set(block.id, 'the arguments must be a JSON object');
        block.input = {};
      } else block.input = parsed;
    } catch (error) {
      this.invalid.set(block.id, `the arguments are not valid JSON (${(error as Error).message})`);
      block.input = {};
    }
  }

  private readUsage(usage: Partial<Anthropic.Usage> | Anthropic.MessageDeltaUsage | null | undefined): void {
    if (!usage) return;
    // message_delta repeats cumulative counts; a later value replaces an earlier one.
    if (usage.input_tokens != null) this.usage.input = usage.input_tokens;
    if (usage.output_tokens != null) this.usage.output = usage.output_tokens;
    if (usage.cache_read_input_tokens != null) this.usage.cacheRead = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) this.usage.cacheWrite = usage.cache_creation_input_tokens;
  }
}

/** Sends one request and streams it into `assembler`; resolves with the complete reply. */
export async function streamMessage(client: Anthropic, request: ProviderRequest, assembler: MessageAssembler, signal: AbortSignal): Promise<AssistantReply> {
  const stream = await client.messages.create(
    {
      model: request.model,
      max_tokens: request.maxTokens,
      system: request.system,
      tools: request.tools.length > 0 ? request.tools : undefined,
      messages: request.messages,
      ...(request.thinking ? { thinking: request.thinking } : {}),
      stream: true,
    },
    { signal },
  );
  try {
    for await (const event of stream) assembler.accept(event);
  } finally {
    // What arrived goes out before the message ends, a retry is announced or a cancel is told.
    assembler.flush();
  }
  return assembler.reply();
}
