/**
 * Events that are shown as they happen but not stored: the updates of a command that floods its
 * terminal, past what the store keeps of it (see UI_STORED_LIMIT in ../tools/bash-output.ts).
 * The call's end result carries what a redraw needs in their place.
 */
import type { CoveEvent } from '../../../shared/events';

export function isLiveOnly(event: CoveEvent): boolean {
  if (event.type !== 'toolExecutionUpdate') return false;
  const details = event.partialResult.details;
  return typeof details === 'object' && details !== null && (details as { live?: unknown }).live === true;
}
