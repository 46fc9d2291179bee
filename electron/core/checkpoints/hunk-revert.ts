/**
 * Revert of one hunk of a file's change, from the review pane (issue 13): the hunk is taken from
 * the same diff the pane shows (a prompt's checkpoints, or the whole session's) and reversed
 * against the file as it is now with `git apply -R`, git's own patch machinery, in the shadow
 * repository's environment (never the user's `.git`). git applies a hunk only where its lines and
 * their context still stand (moved by other edits is fine), so a file changed since in those
 * lines is refused with the reason, and nothing is written.
 */
import { isAbsolute } from 'node:path';
import type { HunkRevertReport } from '../../../shared/contract';
import { git, GitError } from './git-runner';
import { RewindError } from './rewind';
import { withReverts } from './prompt-span';
import { ShadowRepo } from './shadow-repo';
import { checkpointAfter, commitOf, latestKnown, unfinishedRun, type Timeline } from './timeline';

export interface HunkRevertInput {
  coveHome: string;
  workspaceRoots: readonly string[];
  timeline: Timeline;
  /** The prompt whose change the hunk belongs to; the whole session's change when absent. */
  prompt?: number;
  /** The workspace root and the file's path inside it, as `session:changes` names them. */
  root: string;
  path: string;
  /** Which hunk of the file's diff, counting from 0 in the order the diff lists them. */
  hunk: number;
}

/** The diff's file header and the one hunk asked for, as a patch of its own. */
export function singleHunkPatch(diff: string, hunk: number): { patch: string; header: string } | null {
  const lines = diff.split('\n');
  const starts = lines.flatMap((line, index) => (line.startsWith('@@ ') ? [index] : []));
  const first = starts[hunk];
  if (first === undefined || starts.length === 0) return null;
  const end = starts[hunk + 1] ?? (lines.at(-1) === '' ? lines.length - 1 : lines.length);
  const header = lines.slice(0, starts[0]);
  return { patch: [...header, ...lines.slice(first, end), ''].join('\n'), header: lines[first]! };
}

/** The two commits the pane's diff of this file runs between. */
async function span(input: HunkRevertInput, repo: ShadowRepo): Promise<{ from: string; to: string }> {
  const { timeline, root } = input;
  const last = timeline.checkpoints.at(-1);
  // A run that stopped without its run-end checkpoint: its change runs to the workspace as it is now.
  const unfinished = unfinishedRun(timeline);
  const now = async () => (await repo.snapshot('read for a hunk revert')).commit;
  let from: string | undefined;
  let to: string | undefined;
  // The prompt view's diff ends where its run did, less what was reverted since: the same hunks it shows.
  let ofPrompt: { prompt: number; seq: number } | undefined;
  if (input.prompt === undefined) {
    const first = timeline.checkpoints.find((checkpoint) => checkpoint.moment === 'beforeTool');
    from = first && commitOf(first, root);
    to = unfinished ? await now() : latestKnown(timeline, root);
  } else {
    if (!Number.isInteger(input.prompt) || input.prompt < 1 || input.prompt > timeline.prompts.length) {
      throw new RewindError(`there is no prompt ${input.prompt} in this session (it has ${timeline.prompts.length})`);
    }
    const start = timeline.checkpoints.find((checkpoint) => checkpoint.prompt === input.prompt && checkpoint.moment === 'beforeTool');
    const end = checkpointAfter(timeline, input.prompt);
    from = start && commitOf(start, root);
    to = end && (unfinished && end === last ? await now() : commitOf(end, root));
    if (end) ofPrompt = { prompt: input.prompt, seq: end.seq };
  }
  if (!from || !to) throw new RewindError(`${input.prompt === undefined ? 'the session' : `prompt ${input.prompt}`} recorded no change in ${root}`);
  if (!(await repo.has(from)) || !(await repo.has(to)))
    throw new RewindError(`the checkpoint repository of ${root} no longer holds these checkpoints (was ${repo.gitDir} deleted?); nothing was changed`);
  return ofPrompt === undefined ? { from, to } : withReverts(repo, timeline, { from, to }, ofPrompt);
}

export async function revertHunk(input: HunkRevertInput): Promise<HunkRevertReport> {
  if (!input.workspaceRoots.includes(input.root)) throw new RewindError(`${input.root} is not a workspace folder of this session`);
  if (isAbsolute(input.path) || input.path.split(/[\\/]/).includes('..')) throw new RewindError(`${input.path} is not a path inside ${input.root}, as the review pane names files`);
  const repo = new ShadowRepo(input.coveHome, input.root);
  const { from, to } = await span(input, repo);
  const diff = await repo.diff(from, to, [input.path]);
  if (diff.trim() === '') throw new RewindError(`${input.path} did not change ${input.prompt === undefined ? 'in this session' : `in prompt ${input.prompt}`}`);
  const single = singleHunkPatch(diff, input.hunk);
  if (!single) throw new RewindError(`${input.path} has no hunk ${input.hunk + 1} in that change`);
  if (/^(Binary files|GIT binary patch)/m.test(single.patch)) throw new RewindError(`${input.path} is a binary file; revert the whole file instead`);
  const apply = (check: boolean) => git(['apply', '-R', ...(check ? ['--check'] : []), '-'], { gitDir: repo.gitDir, workTree: input.root, input: single.patch });
  try {
    await apply(true);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return {
      reverted: false,
      root: input.root,
      path: input.path,
      hunk: single.header,
      reason: `${input.path} was changed since in these lines, so this change cannot be undone on its own (${error.message}); nothing was changed`,
    };
  }
  await apply(false);
  return { reverted: true, root: input.root, path: input.path, hunk: single.header };
}
