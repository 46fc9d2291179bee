/** How an MCP server's state reads in Settings. */
import type { McpServerView } from '../../../shared/contract';

export interface McpStateLabel {
  label: string;
  icon: string;
  tone: 'ok' | 'busy' | 'waiting' | 'failed';
}

/** The end of stderr kept on screen; main bounds the tail too, this bounds what is drawn. */
export const STDERR_SHOWN_CHARACTERS = 8000;

/**
 * The label of a server's state. A project server waiting for approval is "failed" in the
 * contract; its error then starts with "not started", and it reads as such (the error itself
 * says how to approve it).
 */
export function mcpStateLabel(server: Pick<McpServerView, 'state' | 'error'>): McpStateLabel {
  switch (server.state) {
    case 'connected':
      return { label: 'Connected', icon: '✓', tone: 'ok' };
    case 'starting':
      return { label: 'Starting…', icon: '◐', tone: 'busy' };
    case 'restarting':
      return { label: 'Restarting…', icon: '◐', tone: 'busy' };
    case 'failed':
      return /(^|: )not started: /.test(server.error ?? '') ? { label: 'Not started', icon: '○', tone: 'waiting' } : { label: 'Failed', icon: '✕', tone: 'failed' };
  }
}

/** The last STDERR_SHOWN_CHARACTERS of the tail, cut at a line start; '' when there is nothing. */
export function stderrShown(tail: string): string {
  const trimmed = tail.trimEnd();
  if (trimmed.length <= STDERR_SHOWN_CHARACTERS) return trimmed;
  const end = trimmed.slice(-STDERR_SHOWN_CHARACTERS);
  const newline = end.indexOf('\n');
  return `…\n${newline >= 0 ? end.slice(newline + 1) : end}`;
}
