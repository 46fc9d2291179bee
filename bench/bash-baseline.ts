/**
 * What every bash benchmark stands beside: a bare node-pty running the same command to its end
 * (all of its output read, its last line checked: fixtures/bare-pty-read.mjs), the tool context
 * the bash tool is called with outside a session, and the check that a bash call really ran.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { MemorySnapshotStore, NO_SECRETS, type ToolContext, type ToolResult } from '../electron/core/agent/types';
import type { RecordedRequest } from '../test/support/model-server';
import { readAllFromPty } from './fixtures/bare-pty-read.mjs';

/** Resolves once the command exited 0 and its output ended with `lastLine`; rejects otherwise. */
export async function barePty(command: string, cwd: string, lastLine: string): Promise<void> {
  await readAllFromPty(command, cwd, lastLine);
}

/**
 * Throws, naming what is missing, unless the bash tool's result (or a tool_result the model got)
 * says exit code 0 and its output's last line is `lastLine`: a denied call, a sandbox that did
 * not start or an empty output must fail the benchmark, not time as fast.
 */
export function assertBashRan(text: string, lastLine: string, what: string): void {
  const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
  const status = lines.at(-1);
  const output = lines.at(-2);
  if (status !== '[exit code 0]' || output !== lastLine) {
    throw new Error(`${what}: the command did not run to its end: expected its last line ${JSON.stringify(lastLine)} and [exit code 0], got: ${JSON.stringify(text.slice(-300))}`);
  }
}

/** The text of a tool result's content. */
export function resultText(result: ToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function bashContext(cwd: string): ToolContext {
  return {
    toolCallId: 'bench',
    toolName: 'bash',
    signal: new AbortController().signal,
    onUpdate: () => {},
    onProgress: () => {},
    workspaceRoots: [cwd],
    secrets: NO_SECRETS,
    sessionId: 'bench',
    cwd,
    snapshots: new MemorySnapshotStore(),
  };
}

/** The tool_result blocks of a request to the model, in the order they were sent. */
export function toolResultBlocks(request: RecordedRequest | undefined): Anthropic.ToolResultBlockParam[] {
  return (request?.body.messages ?? []).flatMap((message) => (typeof message.content === 'string' ? [] : message.content.flatMap((part) => (part.type === 'tool_result' ? [part] : []))));
}

/** A tool_result block's text, as the model read it. */
export function toolResultBlockText(block: Anthropic.ToolResultBlockParam): string {
  const content = block.content ?? '';
  return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The text of the last tool_result the model was sent, in the newest recorded request; '' when there is none. */
export function lastToolResultText(requests: readonly RecordedRequest[]): string {
  const last = toolResultBlocks(requests.at(-1)).at(-1);
  return last ? toolResultBlockText(last) : '';
}
