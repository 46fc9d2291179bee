/**
 * Repeated-call detection: the same tool with the same arguments three times in a row is not
 * run a third time; the model is told to change course (a nudge). If it repeats the call again
 * after the nudge, the run stops.
 */
export const REPEAT_LIMIT = 3;

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export type LoopVerdict = { action: 'run' } | { action: 'nudge' | 'stop'; count: number };

export class LoopGuard {
  private last = '';
  private count = 0;
  private nudged = false;

  observe(toolName: string, args: unknown): LoopVerdict {
    const signature = `${toolName}\u0000${stableJson(args)}`;
    if (signature === this.last) this.count++;
    else {
      this.last = signature;
      this.count = 1;
      this.nudged = false;
    }
    if (this.count < REPEAT_LIMIT) return { action: 'run' };
    if (!this.nudged) {
      this.nudged = true;
      return { action: 'nudge', count: this.count };
    }
    return { action: 'stop', count: this.count };
  }
}

export function nudgeText(toolName: string, count: number): string {
  return (
    `This exact ${toolName} call was made ${count} times in a row and was not run again: the result would not change. ` + 'Try a different approach, or tell the user what is blocking you.'
  );
}
