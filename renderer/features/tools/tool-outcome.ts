/**
 * What a finished call came to, in one word and its reason. A tool may report a failure without
 * an error: bash returns a result for a command that exited non-zero (the model reads the exit
 * code), so `isError` alone would draw a failing command as done.
 */
import type { ToolItem } from '../transcript/model-types';

export type OutcomeTone = 'running' | 'done' | 'failed' | 'denied' | 'cancelled' | 'interrupted';

export interface Outcome {
  tone: OutcomeTone;
  /** "Done", "Failed (exit 2)", "Denied"… */
  label: string;
}

interface RunFacts {
  exitCode?: unknown;
  signal?: unknown;
  timedOut?: unknown;
}

export function callOutcome(item: Pick<ToolItem, 'status' | 'result' | 'isError'>): Outcome {
  if (item.status === 'running') return { tone: 'running', label: 'Running' };
  const result = item.result;
  switch (result?.errorKind) {
    case 'denied':
      return { tone: 'denied', label: 'Denied' };
    case 'cancelled':
      return { tone: 'cancelled', label: 'Cancelled' };
    case 'interrupted':
      return { tone: 'interrupted', label: 'Interrupted' };
  }
  // A call cut off by a closed app has no result at all.
  if (result === null) return item.status === 'done' ? { tone: 'done', label: 'Done' } : { tone: 'interrupted', label: 'Interrupted' };
  const reason = runFailure(result.details);
  if (reason !== null) return { tone: 'failed', label: `Failed (${reason})` };
  if (item.isError || item.status === 'error') return { tone: 'failed', label: 'Failed' };
  return { tone: 'done', label: 'Done' };
}

/** Why a process ended badly, from a result's details; null when it did not (or ran none). */
export function runFailure(details: unknown): string | null {
  if (!details || typeof details !== 'object') return null;
  const facts = details as RunFacts;
  if (facts.timedOut === true) return 'timed out';
  if (typeof facts.exitCode === 'number' && facts.exitCode !== 0) return `exit ${facts.exitCode}`;
  if (facts.exitCode === null && (typeof facts.signal === 'number' || typeof facts.signal === 'string')) return `killed by signal ${facts.signal}`;
  return null;
}

/** The exit code of a process that ended well, for the "exit 0" badge. */
export function cleanExit(details: unknown): number | null {
  if (!details || typeof details !== 'object') return null;
  const code = (details as RunFacts).exitCode;
  return code === 0 ? 0 : null;
}
