/**
 * A real ToolContext for calling file tools directly, and temp workspaces that clean up after
 * themselves.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MemorySnapshotStore, NO_SECRETS, ToolError, type SecretRedactor, type ToolContext, type ToolResult } from '../../../electron/core/agent/types';

export interface TestContext extends ToolContext {
  snapshots: MemorySnapshotStore;
  updates: ToolResult[];
  progress: string[];
  abort: AbortController;
}

export function makeContext(roots: readonly string[], secrets: SecretRedactor = NO_SECRETS): TestContext {
  const abort = new AbortController();
  const updates: ToolResult[] = [];
  const progress: string[] = [];
  return {
    toolCallId: 'call-1',
    toolName: 'test',
    signal: abort.signal,
    abort,
    onUpdate: (partial) => updates.push(partial),
    onProgress: (text) => progress.push(text),
    updates,
    progress,
    workspaceRoots: roots,
    secrets,
    sessionId: 'session-1',
    cwd: roots[0] ?? '/',
    snapshots: new MemorySnapshotStore(),
  };
}

/** A fresh real folder (realpath'd, so macOS /tmp links do not matter); `files` maps paths to content. */
export function tempFolder(prefix: string, files: Record<string, string | Buffer> = {}): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), `cove-${prefix}-`)));
  writeTree(folder, files);
  return folder;
}

export function writeTree(folder: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const absolute = join(folder, path);
    if (path.endsWith('/')) {
      mkdirSync(absolute, { recursive: true });
      continue;
    }
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
  }
}

export function removeFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

export function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`)).join('\n');
}

/** Runs `action`, which must throw a ToolError; returns it. */
export async function toolError(action: () => unknown): Promise<ToolError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw new Error(`expected a ToolError, got ${String(error)}`);
  }
  throw new Error('expected a ToolError, but the call succeeded');
}
