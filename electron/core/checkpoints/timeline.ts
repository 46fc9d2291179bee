/**
 * A session's prompts and checkpoints, read back from its stored events in `seq` order. Prompt N
 * is the Nth `userMessage` that reached the agent (a built-in command's answer started nothing);
 * a checkpoint belongs to the prompt most recently given before it, steered ones included.
 */
import type { CheckpointEvent, RevertEvent, RewindEvent } from '../../../shared/events';
import type { StoredEvent } from '../store';

export interface PromptEntry {
  number: number;
  text: string;
  seq: number;
  /** Sent into a running turn: no prompt boundary, so a rewind to it goes to its run's prompt. */
  steered: boolean;
}

export type TimelineCheckpoint = CheckpointEvent & { seq: number; prompt: number };

export interface Timeline {
  prompts: PromptEntry[];
  checkpoints: TimelineCheckpoint[];
  rewinds: Array<RewindEvent & { seq: number }>;
  /** The review pane's hunk and file reverts, and their undoing. */
  reverts: Array<RevertEvent & { seq: number }>;
}

export function timelineOf(events: readonly StoredEvent[]): Timeline {
  const timeline: Timeline = { prompts: [], checkpoints: [], rewinds: [], reverts: [] };
  for (const event of events) {
    if (event.type === 'userMessage' && event.answer === undefined && !event.subagentId) {
      timeline.prompts.push({ number: timeline.prompts.length + 1, text: event.text, seq: event.seq, steered: event.steered });
    } else if (event.type === 'checkpoint') {
      timeline.checkpoints.push({ ...event, prompt: timeline.prompts.length });
    } else if (event.type === 'rewind') timeline.rewinds.push(event);
    else if (event.type === 'revert') timeline.reverts.push(event);
  }
  return timeline;
}

/** The prompt that started the run prompt N was steered into, or N itself when it started one. */
export function enclosingPrompt(timeline: Timeline, prompt: number): number {
  let number = prompt;
  while (number > 1 && timeline.prompts[number - 1]?.steered) number--;
  return number;
}

/** The first checkpoint recorded at or after prompt N began: the workspace as it was before that prompt. */
export function checkpointBefore(timeline: Timeline, prompt: number): TimelineCheckpoint | undefined {
  return timeline.checkpoints.find((checkpoint) => checkpoint.prompt >= prompt && checkpoint.moment === 'beforeTool');
}

/** The commit of `root` in the checkpoint, when that root was recorded. */
export function commitOf(checkpoint: CheckpointEvent, root: string): string | undefined {
  return checkpoint.roots.find((entry) => entry.root === root)?.commit;
}

/** The last state of `root` that Cove itself recorded: a checkpoint, or what a rewind left. */
export function latestKnown(timeline: Timeline, root: string): string | undefined {
  let best: { seq: number; commit: string } | undefined;
  for (const checkpoint of timeline.checkpoints) {
    const commit = commitOf(checkpoint, root);
    if (commit && (!best || checkpoint.seq > best.seq)) best = { seq: checkpoint.seq, commit };
  }
  for (const restore of [...timeline.rewinds, ...timeline.reverts]) {
    const after = restore.roots.find((entry) => entry.root === root)?.after;
    if (after && (!best || restore.seq > best.seq)) best = { seq: restore.seq, commit: after };
  }
  return best?.commit;
}

/**
 * Whether the last checkpoint is one taken before a call with nothing Cove recorded after it: a
 * run still going, or stopped without its run-end checkpoint, whose change so far is read from
 * the workspace as it is now.
 */
export function unfinishedRun(timeline: Timeline): boolean {
  const last = timeline.checkpoints.at(-1);
  return last?.moment === 'beforeTool' && [...timeline.rewinds, ...timeline.reverts].every((restore) => restore.seq < last.seq);
}

/** Where prompt N's changes end: its run's last checkpoint, else the next prompt's first, else its own last. */
export function checkpointAfter(timeline: Timeline, prompt: number): TimelineCheckpoint | undefined {
  const own = timeline.checkpoints.filter((checkpoint) => checkpoint.prompt === prompt);
  const last = own.at(-1);
  if (last?.moment === 'runEnd') return last;
  return timeline.checkpoints.find((checkpoint) => checkpoint.prompt > prompt) ?? last;
}
