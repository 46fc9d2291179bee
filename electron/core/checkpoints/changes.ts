/**
 * What each prompt of a session changed, and the whole session, file by file with diffs, read
 * from its checkpoints: a prompt's changes run from its first checkpoint to the one its run
 * left (so edits the person made between runs are not counted as the agent's), less what the
 * review pane reverted of them since (prompt-span.ts).
 */
import type { ChangedFileView, RevertView, SessionChangesView } from '../../../shared/contract';
import type { SecretRedactor } from '../agent/types';
import { withReverts } from './prompt-span';
import { ShadowRepo, type ChangedPath } from './shadow-repo';
import { checkpointAfter, commitOf, latestKnown, unfinishedRun, type Timeline, type TimelineCheckpoint } from './timeline';

/** Each diff redacted and cut to MAX_DIFF_CHARS; `problems` names roots whose checkpoints could not be read. */
export type FileChange = ChangedFileView;
export type SessionChanges = SessionChangesView;

export const MAX_DIFF_CHARS = 100_000;

const PROMPTS_AT_ONCE = 4;

const CHANGE_NAMES: Record<ChangedPath['status'], FileChange['change']> = { A: 'added', D: 'deleted', M: 'modified', T: 'modified' };

function bounded(diff: string): string {
  return diff.length <= MAX_DIFF_CHARS ? diff : `${diff.slice(0, MAX_DIFF_CHARS)}\n… diff cut at ${MAX_DIFF_CHARS} characters (${diff.length} in all)\n`;
}

async function between(repo: ShadowRepo, from: string, to: string, secrets: SecretRedactor): Promise<FileChange[]> {
  if (from === to) return [];
  const files: FileChange[] = [];
  for (const changed of await repo.changes(from, to)) {
    const diff = secrets.redact(await repo.diff(from, to, [changed.path])).text;
    files.push({ root: repo.root, path: changed.path, change: CHANGE_NAMES[changed.status], diff: bounded(diff) });
  }
  return files;
}

function revertViews(timeline: Timeline): RevertView[] {
  const undone = new Set(timeline.reverts.flatMap((revert) => (revert.undoes === undefined ? [] : [revert.undoes])));
  return timeline.reverts.map(({ seq, scope, prompt, paths, hunk, undoes }) => ({
    seq,
    scope,
    ...(prompt === undefined ? {} : { prompt }),
    paths,
    ...(hunk === undefined ? {} : { hunk }),
    ...(undoes === undefined ? {} : { undoes }),
    undone: undone.has(seq),
  }));
}

export async function sessionChanges(input: { coveHome: string; workspaceRoots: readonly string[]; timeline: Timeline; secrets: SecretRedactor }): Promise<SessionChanges> {
  const { timeline } = input;
  const result: SessionChanges = { prompts: [], session: [], problems: [] };
  const repos = new Map(input.workspaceRoots.map((root) => [root, new ShadowRepo(input.coveHome, root)]));
  // The last checkpoint is one taken before a call: a run is still going (or stopped without its
  // run-end checkpoint), so what its calls did so far is read from the workspace as it is now.
  const last = timeline.checkpoints.at(-1);
  const unfinished = unfinishedRun(timeline);
  const nowCommits = new Map<string, Promise<string>>();
  const now = (root: string) => {
    let commit = nowCommits.get(root);
    if (!commit)
      nowCommits.set(
        root,
        (commit = repos
          .get(root)!
          .snapshot('read for the changes of a running session')
          .then((snapshot) => snapshot.commit)),
      );
    return commit;
  };
  // A prompt's span names the seq its end was recorded at: reverts recorded after it are taken out of it too.
  const span = async (start: TimelineCheckpoint, end: (root: string) => string | undefined | Promise<string>, ofPrompt?: { prompt: number; seq: number }): Promise<FileChange[]> => {
    const files: FileChange[] = [];
    for (const [root, repo] of repos) {
      const from = commitOf(start, root);
      const to = await end(root);
      if (!from || !to) continue;
      if (!(await repo.has(from)) || !(await repo.has(to))) {
        const problem = `${root}: its checkpoint repository no longer holds these checkpoints (was ${repo.gitDir} deleted?)`;
        if (!result.problems.includes(problem)) result.problems.push(problem);
        continue;
      }
      const range = ofPrompt === undefined ? { from, to } : await withReverts(repo, timeline, { from, to }, ofPrompt);
      files.push(...(await between(repo, range.from, range.to, input.secrets)));
    }
    return files;
  };
  const ofPrompt = async (prompt: Timeline['prompts'][number]) => {
    const start = timeline.checkpoints.find((checkpoint) => checkpoint.prompt === prompt.number && checkpoint.moment === 'beforeTool');
    const end = checkpointAfter(timeline, prompt.number);
    const open = unfinished && end === last;
    const files = start && end ? await span(start, (root) => (open ? now(root) : commitOf(end, root)), { prompt: prompt.number, seq: end.seq }) : [];
    return { prompt: prompt.number, text: prompt.text, files };
  };
  // A few prompts at a time: each is a handful of git processes, mostly time spent starting them.
  for (let index = 0; index < timeline.prompts.length; index += PROMPTS_AT_ONCE) {
    result.prompts.push(...(await Promise.all(timeline.prompts.slice(index, index + PROMPTS_AT_ONCE).map(ofPrompt))));
  }
  const first = timeline.checkpoints.find((checkpoint) => checkpoint.moment === 'beforeTool');
  if (first) result.session = await span(first, (root) => (unfinished ? now(root) : latestKnown(timeline, root)));
  if (timeline.reverts.length > 0) result.reverts = revertViews(timeline);
  return result;
}
