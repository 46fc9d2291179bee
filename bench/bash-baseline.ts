/**
 * What every bash benchmark stands beside: a bare node-pty running the same command to its end,
 * and the tool context the bash tool is called with outside a session.
 */
import pty from 'node-pty';
import { MemorySnapshotStore, NO_SECRETS, type ToolContext } from '../electron/core/agent/types';

export function barePty(command: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = pty.spawn('/bin/bash', ['-c', command], {
      name: 'xterm-256color',
      cols: 120,
      rows: 30,
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    let bytes = 0;
    child.onData((chunk) => (bytes += chunk.length));
    child.onExit(({ exitCode }) => (exitCode === 0 && bytes > 0 ? resolve() : reject(new Error(`bare pty exited ${exitCode} after ${bytes} bytes`))));
  });
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
