/**
 * How the loop reads the provider's stop reason, and the thinking parameter it sends. A reply
 * that ends in `max_tokens`, `refusal` or `model_context_window_exceeded` is never a normal end
 * (SPEC §3); a stop reason newer than Cove ends the turn, with a log line, rather than the run.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelSpec } from './model-catalog';

export type StopKind = 'normal' | 'maxTokens' | 'refusal' | 'contextExceeded' | 'pause' | 'unknown';

/** Continuations of a reply cut at max_tokens before the run ends as truncated. */
export const MAX_CONTINUATIONS = 2;
/** pause_turn replies resumed in a row before the run gives up. */
export const MAX_PAUSES = 5;

const KINDS: Record<string, StopKind> = {
  end_turn: 'normal',
  tool_use: 'normal',
  stop_sequence: 'normal',
  max_tokens: 'maxTokens',
  refusal: 'refusal',
  model_context_window_exceeded: 'contextExceeded',
  pause_turn: 'pause',
};

export function classifyStop(stopReason: string | null): { kind: StopKind } {
  // A gateway that sends no stop reason at all is taken at its word that the message ended.
  if (stopReason === null) return { kind: 'normal' };
  return { kind: KINDS[stopReason] ?? 'unknown' };
}

/**
 * Adaptive thinking where the model supports it, with summarized display: on current models the
 * default display is `omitted`, and the text written between tool calls comes back in thinking
 * blocks, so without it the person would see nothing between calls. Models without adaptive
 * thinking (and models nobody knows, such as a local one behind Ollama) get no thinking field.
 */
export function thinkingFor(spec: ModelSpec): Anthropic.ThinkingConfigParam | undefined {
  return spec.thinking === 'adaptive' ? { type: 'adaptive', display: 'summarized' } : undefined;
}
