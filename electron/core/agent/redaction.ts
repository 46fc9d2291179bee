/**
 * Central redaction: every tool output passes here before the model, the events, the UI or the
 * store see it, so no tool (built-in, MCP or subagent) can forget to redact.
 */
import type { ToolResultPayload } from '../../../shared/events';
import type { SecretRedactor, ToolResult } from './types';

/**
 * Partial results already redacted with the session's own set: by `redactResult` below, or by a
 * tool that redacts its stream itself (bash's `onUpdate(…, { redacted: true })`). The session
 * manager publishes these without a second pass over the same text (sessions/session-manager.ts).
 */
const sessionRedacted = new WeakSet<ToolResultPayload>();

export function markRedacted(payload: ToolResultPayload): ToolResultPayload {
  sessionRedacted.add(payload);
  return payload;
}

export function isRedacted(payload: ToolResultPayload): boolean {
  return sessionRedacted.has(payload);
}

/** Redacts every string inside a JSON-like value; returns a copy and the number of values replaced. */
export function redactDeep(value: unknown, redactor: SecretRedactor): { value: unknown; count: number } {
  let count = 0;
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const redacted = redactor.redact(node);
      count += redacted.count;
      return redacted.text;
    }
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) out[key] = visit(item);
      return out;
    }
    return node;
  };
  return { value: visit(value), count };
}

export function redactResult(result: ToolResult | ToolResultPayload, redactor: SecretRedactor): ToolResultPayload {
  let count = 0;
  // Image data is base64, not text: redacting inside it would only corrupt the picture.
  const content = result.content.map((block) => {
    if (block.type !== 'text') return block;
    const redacted = redactor.redact(block.text);
    count += redacted.count;
    return { type: 'text' as const, text: redacted.text };
  });
  const rest = redactDeep({ details: result.details, diff: result.diff }, redactor);
  count += rest.count;
  const { details, diff } = rest.value as { details?: unknown; diff?: string };
  const previous = (result as ToolResultPayload).redactions ?? 0;
  const errorKind = (result as ToolResultPayload).errorKind;
  return {
    content,
    ...(details === undefined ? {} : { details }),
    ...(diff === undefined ? {} : { diff }),
    ...(errorKind ? { errorKind } : {}),
    ...(previous + count > 0 ? { redactions: previous + count } : {}),
  };
}
