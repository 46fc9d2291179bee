/**
 * What a card's title says of a call. Core sends each tool's own label and one-line summary
 * (toolExecutionStart, permissionRequest), so nothing here knows any tool; the fallbacks are for
 * sessions recorded before the events carried them.
 */
import type { ToolExecutionStartEvent, ToolKind } from '../../../shared/events';

const MAX_LENGTH = 160;

/** The start event's description of the call, for the transcript item. */
export function describedCall(event: Pick<ToolExecutionStartEvent, 'label' | 'summary' | 'kind'>): { label?: string; summary?: string; toolKind?: ToolKind } {
  return {
    ...(event.label === undefined ? {} : { label: event.label }),
    ...(event.summary === undefined ? {} : { summary: event.summary }),
    ...(event.kind === undefined ? {} : { toolKind: event.kind }),
  };
}

/** The tool's label, else its name (`mcp__server__tool` reads as `server › tool`). */
export function toolLabel(toolName: string, label?: string): string {
  if (label) return label;
  const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return mcp ? `${mcp[1]} › ${mcp[2]}` : toolName;
}

/** The call's summary as sent, else its first text argument, on one line. */
export function toolSummary(summary: string | undefined, args: unknown): string {
  let text = summary;
  if (text === undefined) {
    const values = args && typeof args === 'object' ? Object.values(args as Record<string, unknown>) : [];
    text = values.find((value): value is string => typeof value === 'string') ?? '';
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line;
}

const INLINE_RESULT_LENGTH = 160;

/**
 * A result short enough to show in the card as it is (one line of text, no images), so a
 * "Wrote hello.txt" is not hidden behind "Show output"; null for anything longer.
 */
export function inlineResult(content: readonly { type: string; text?: string }[]): string | null {
  if (content.length === 0 || content.some((block) => block.type !== 'text')) return null;
  const text = content
    .map((block) => block.text ?? '')
    .join('\n')
    .trim();
  if (text === '' || text.includes('\n') || text.length > INLINE_RESULT_LENGTH) return null;
  return text;
}
