/**
 * Moving line numbers from the version of a file the model read onto the live file. A line
 * moves only when a line diff keeps it unchanged AND no equally short diff could have put it
 * somewhere else (identical neighbours next to an inserted or deleted block make the alignment
 * a coin toss, and editing the wrong one of two identical lines is worse than asking to re-read).
 */
import { diffArrays } from 'diff';

export type Located = { line: number } | { problem: 'changed' | 'ambiguous' };

/** Maps 1-based line numbers of the version the model saw to 1-based live line numbers. */
export interface LineLocator {
  locate(line: number): Located;
}

export const IDENTITY_LOCATOR: LineLocator = { locate: (line) => ({ line }) };

/** Beyond this, a diff of a heavily rewritten file is not worth waiting for: ask for a re-read. */
const DIFF_TIMEOUT_MS = 1500;

/** Returns undefined when the files are too different to diff in reasonable time. */
export function diffLocator(snapshot: readonly string[], live: readonly string[]): LineLocator | undefined {
  const changes = diffArrays([...snapshot], [...live], { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return undefined;

  const toLive = new Int32Array(snapshot.length).fill(-1);
  const commonInLive = new Uint8Array(live.length);
  const commonInSnapshot = new Uint8Array(snapshot.length);
  const removedBlocks: Array<[number, number]> = [];
  const addedBlocks: Array<[number, number]> = [];
  let oldIndex = 0;
  let newIndex = 0;
  for (const change of changes) {
    const count = change.value.length;
    if (change.added) {
      addedBlocks.push([newIndex, newIndex + count]);
      newIndex += count;
    } else if (change.removed) {
      removedBlocks.push([oldIndex, oldIndex + count]);
      oldIndex += count;
    } else {
      for (let k = 0; k < count; k++) {
        toLive[oldIndex + k] = newIndex + k;
        commonInSnapshot[oldIndex + k] = 1;
        commonInLive[newIndex + k] = 1;
      }
      oldIndex += count;
      newIndex += count;
    }
  }

  const ambiguousInSnapshot = slidableCommonLines(snapshot, removedBlocks, commonInSnapshot);
  const ambiguousInLive = slidableCommonLines(live, addedBlocks, commonInLive);
  return {
    locate(line) {
      const index = line - 1;
      const target = toLive[index] ?? -1;
      if (target < 0) return { problem: 'changed' };
      if (ambiguousInSnapshot[index] || ambiguousInLive[target]) return { problem: 'ambiguous' };
      return { line: target + 1 };
    },
  };
}

/**
 * Marks the unchanged lines a changed block could slide over: a block [start, end) can move up
 * one line while the line above it equals its last line, and down while the line below equals
 * its first. Every unchanged line it passes could have been aligned differently.
 */
function slidableCommonLines(lines: readonly string[], blocks: Array<[number, number]>, common: Uint8Array): Uint8Array {
  const marked = new Uint8Array(lines.length);
  for (const [blockStart, blockEnd] of blocks) {
    let start = blockStart;
    let end = blockEnd;
    while (start > 0 && common[start - 1] && lines[start - 1] === lines[end - 1]) {
      start--;
      end--;
      marked[start] = 1;
    }
    start = blockStart;
    end = blockEnd;
    while (end < lines.length && common[end] && lines[end] === lines[start]) {
      marked[end] = 1;
      start++;
      end++;
    }
  }
  return marked;
}
