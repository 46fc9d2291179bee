/**
 * What the permission-engine tests share: a person who answers when the test says so, a
 * workspace with a link that points out of it, calls, and an engine that records its audit.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PermissionEngine,
  type AuditEntry,
  type PermissionAnswer,
  type PermissionAnswered,
  type PermissionAsk,
  type PermissionCall,
  type PermissionEngineOptions,
} from '../../electron/core/permissions';

interface Pending {
  request: PermissionAsk;
  signal: AbortSignal;
  answer(answer: PermissionAnswer): void;
}

/** A person who answers when the test says so. */
export function person() {
  const pending: Pending[] = [];
  let arrived: (() => void) | null = null;
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    pending,
    ask(request: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> {
      asked++;
      return new Promise((resolve) => {
        pending.push({ request, signal, answer: resolve });
        arrived?.();
      });
    },
    async next(): Promise<Pending> {
      while (pending.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
      return pending.shift()!;
    },
  };
}

/** Lets every queued callback and promise reaction run (no timers involved). */
export const settle = () => new Promise((resolve) => setImmediate(resolve));

export function workspace(t: { after(fn: () => void): void }) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-engine-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  const home = join(base, 'home');
  for (const dir of [root, outside, home, join(root, 'src')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(root, 'escape'));
  return { root, outside, home, coveHome: join(base, 'cove-home') };
}

let calls = 0;
/** A fresh tool call id, so no two calls of a test look like one. */
export const callId = () => `call-${++calls}`;
export function bash(command: string): PermissionCall {
  return { sessionId: 'session-1', toolCallId: callId(), toolName: 'bash', args: { command }, sensitivity: 'mutating' };
}
export function tool(toolName: string, args: unknown, sensitivity: PermissionCall['sensitivity'] = 'mutating'): PermissionCall {
  return { sessionId: 'session-1', toolCallId: callId(), toolName, args, sensitivity };
}

export function engineFor(root: string, home: string, options: Partial<PermissionEngineOptions> = {}) {
  const audit: AuditEntry[] = [];
  const answers: PermissionAnswered[] = [];
  const engine = new PermissionEngine({
    mode: 'default',
    workspaceRoots: [root],
    home,
    audit: (entry) => audit.push(entry),
    onAnswer: (answered) => answers.push(answered),
    ...options,
  });
  return { engine, audit, answers };
}

export const never = new AbortController().signal;
