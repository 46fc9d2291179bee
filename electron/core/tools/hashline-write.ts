/**
 * Writing several files so that either all of them change or none does. Every new content goes
 * to a temp file beside its target first (same filesystem, so rename is atomic); only when all
 * temp files exist are they renamed over their targets, and a failed rename puts back what the
 * earlier renames replaced.
 */
import { promises as fs } from 'node:fs';
import { ToolError } from '../agent/types';
import { commitStaged, fileError, stageBeside } from './fs-utils';

export interface PendingWrite {
  absolute: string;
  /** For messages. */
  display: string;
  before: string;
  after: string;
}

export async function writeAllOrNone(writes: readonly PendingWrite[]): Promise<void> {
  const temps: string[] = [];
  try {
    for (const write of writes) {
      try {
        temps.push(await stageBeside(write.absolute, write.after, write.display));
      } catch (error) {
        throw ToolError.failed(`${fileError(error, write.display, 'write').message}; no file was changed`);
      }
    }
  } catch (error) {
    await Promise.all(temps.map((temp) => fs.rm(temp, { force: true })));
    throw error;
  }

  for (let i = 0; i < writes.length; i++) {
    try {
      commitStaged(temps[i]!, writes[i]!.absolute, writes[i]!.display);
    } catch (error) {
      await Promise.all(temps.slice(i).map((temp) => fs.rm(temp, { force: true })));
      const unrestored = await restore(writes.slice(0, i));
      const suffix = unrestored.length === 0 ? 'no file was changed' : `could not restore ${unrestored.join(', ')}, which now hold the edited content`;
      throw ToolError.failed(`${fileError(error, writes[i]!.display, 'write').message}; ${suffix}`);
    }
  }
}

/** Puts back the previous contents; returns the files that could not be restored. */
async function restore(written: readonly PendingWrite[]): Promise<string[]> {
  const failed: string[] = [];
  for (const write of written) {
    try {
      const temp = await stageBeside(write.absolute, write.before, write.display);
      try {
        commitStaged(temp, write.absolute, write.display);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    } catch {
      failed.push(write.display);
    }
  }
  return failed;
}
