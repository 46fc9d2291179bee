/**
 * What the UI shows of a call, asked of the tool itself: its label, its kind and a one-line
 * summary. Carried on toolExecutionStart, so no host keeps a table of tools.
 */
import type { Tool } from './types';

const SUMMARY_LENGTH = 160;

/** The tool's own summary, else its first text argument; one line, cut to fit a card's title. */
export function summarize(tool: Pick<Tool, 'summary'> | undefined, args: unknown): string {
  let text = '';
  if (args && typeof args === 'object') {
    try {
      const given: unknown = tool?.summary?.(args);
      text = typeof given === 'string' ? given : '';
    } catch {
      // A summary must never fail a call: arguments that do not fit the schema (the model's
      // mistakes are reported with their own start event) fall back to the first text.
      text = '';
    }
    if (!text) text = Object.values(args as Record<string, unknown>).find((value): value is string => typeof value === 'string') ?? '';
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
}

export function describeCall(tool: Tool, args: unknown): { label: string; summary: string; kind: NonNullable<Tool['kind']>; sensitivity: Tool['sensitivity'] } {
  return { label: tool.label, summary: summarize(tool, args), kind: tool.kind ?? 'other', sensitivity: tool.sensitivity };
}
