/**
 * The checkpoints of one session's run: a middleware placed after the permission gate, so a
 * checkpoint is recorded once a call is allowed and just before it runs, for every call whose
 * tool is not read-only (file tools, bash, MCP tools). Checkpoints are taken one at a time, so
 * the first one of a prompt is always recorded before any of its calls has started. When a run
 * that changed something ends, one more checkpoint records what the agent left, which is how a
 * rewind later tells the agent's changes from the person's own edits.
 */
import { randomUUID } from 'node:crypto';
import { makeEvent, type CheckpointEvent, type CoveEvent } from '../../../shared/events';
import type { ToolCallRequest, ToolDecision, ToolMiddleware } from '../agent/types';
import { GitError } from './git-runner';
import type { CheckpointSettings } from './settings';
import { ShadowRepo, type Snapshot } from './shadow-repo';

export interface SessionCheckpointsOptions {
  coveHome: string;
  sessionId: string;
  workspaceRoots: readonly string[];
  settings: CheckpointSettings;
  emit(event: CoveEvent): void;
  /** Whether the session recorded checkpoints before this run; asked only when a shadow repository had to be made. */
  hadCheckpoints?(): boolean;
  /**
   * Start a never-checkpointed workspace's first copy when the run starts. For hosts that stay
   * up (the app, `cove serve`); `cove run` would otherwise wait for it to exit after a run that
   * changed nothing.
   */
  warmUp?: boolean;
}

/** Built-in tools that write files and nothing else: none makes an empty folder or deletes one. */
const FILE_TOOLS = new Set(['write_file', 'edit_file', 'hashline_edit']);

function failureText(root: string, error: unknown): string {
  if (error instanceof GitError && error.diskFull) return `${root}: not recorded: the disk is full`;
  return `${root}: not recorded: ${(error as Error)?.message ?? String(error)}`;
}

function missingText(root: string): string {
  return `${root}: the checkpoint repository was missing (deleted?) and was made anew; this session's earlier checkpoints of it are gone`;
}

function problemsOf(snapshot: Snapshot, hadRecorded: boolean, sizeCap: number): string[] {
  const problems: string[] = [];
  if (snapshot.created && hadRecorded) problems.push(missingText(snapshot.root));
  if (snapshot.lostTrack) problems.push(`${snapshot.root}: the file watcher lost track of changes (${snapshot.lostTrack}); this checkpoint asked git status about the whole tree instead`);
  for (const path of snapshot.large) problems.push(`${snapshot.root}/${path}: over the size cap (${sizeCap} bytes): noted, not copied`);
  for (const path of snapshot.changing) problems.push(`${snapshot.root}/${path}: changed while it was being recorded; its copy may be of either version`);
  for (const reason of snapshot.skipped) problems.push(`${snapshot.root}: ${reason}`);
  return problems;
}

/** The task's value, or undefined as soon as the signal fires (the task goes on regardless). */
function unlessAborted<T>(task: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    task.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class SessionCheckpoints {
  readonly middleware: ToolMiddleware;
  private readonly repos: ShadowRepo[];
  private queue: Promise<unknown> = Promise.resolve();
  /** The last call a checkpoint was recorded for in this run, for the run-end checkpoint. */
  private lastCall: string | undefined;
  /** Its tool: after a file tool alone, the empty folders are as the last checkpoint found them. */
  private lastTool: string | undefined;
  private readonly recordedRoots = new Set<string>();
  /** Found before the first checkpoint of this run (a shadow repository gone), said by it. */
  private readonly pendingProblems: string[] = [];

  constructor(private readonly options: SessionCheckpointsOptions) {
    this.repos = options.workspaceRoots.map((root) => new ShadowRepo(options.coveHome, root, options.settings.maxFileBytes));
    // After the run's first checkpoint, a watcher names what changed: the others walk nothing.
    for (const repo of this.repos) repo.watchChanges();
    this.middleware = { name: 'checkpoints', beforeTool: (call) => this.beforeTool(call) };
    // A run's first checkpoint walks the tree and starts the watcher (a fifth of a second in a
    // 20,000-file repository), and a workspace never checkpointed is copied whole (seconds): do
    // that now, while the model thinks, so the first edit pays only what the watcher saw since.
    if (options.warmUp && options.settings.enabled) {
      const fresh = this.repos.filter((repo) => !repo.exists());
      if (options.hadCheckpoints?.()) for (const repo of fresh) this.pendingProblems.push(missingText(repo.root));
      void this.serially(() => Promise.allSettled(this.repos.map((repo) => repo.snapshot(fresh.includes(repo) ? 'first copy of the workspace' : 'start of a run'))));
    }
  }

  private async beforeTool(call: ToolCallRequest): Promise<ToolDecision> {
    if (call.sensitivity === 'readOnly' || !this.options.settings.enabled) return { action: 'allow' };
    const foldersUnchanged = this.lastTool !== undefined && FILE_TOOLS.has(this.lastTool);
    const recording = this.serially(() => this.record(call.toolCallId, 'beforeTool', foldersUnchanged));
    // A stopped run does not wait for its checkpoint; the checkpoint still finishes, whole.
    const event = await unlessAborted(recording, call.signal);
    if (!event) return { action: 'deny', reason: 'the run was stopped before the call ran' };
    this.lastCall = call.toolCallId;
    this.lastTool = call.toolName;
    const failed = event.roots.length < this.repos.length;
    if (failed && this.options.settings.required) {
      const reasons = event.problems.filter((problem) => problem.includes(': not recorded: ')).join('; ');
      return {
        action: 'deny',
        reason: `no checkpoint could be recorded before this call, so it did not run (${reasons}). To run calls without a checkpoint, set {"checkpoints": {"required": false}} in settings`,
      };
    }
    return { action: 'allow' };
  }

  /** Records what the run left, when it changed anything; never throws. */
  async finishRun(): Promise<void> {
    const lastCall = this.lastCall;
    this.lastCall = undefined;
    this.lastTool = undefined;
    // Empty folders found afresh (from the watcher's list, or a walk): a bash call that ran beside
    // file tools may have made some, and a rewind removes only the empty folders a checkpoint knows.
    if (lastCall) await this.serially(() => this.record(lastCall, 'runEnd'));
    await this.close();
  }

  /** Stops the file watchers once the checkpoints being recorded are written; the next run starts its own. */
  async close(): Promise<void> {
    await this.queue;
    for (const repo of this.repos) repo.close();
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => {});
    return next;
  }

  private async record(toolCallId: string, moment: CheckpointEvent['moment'], foldersUnchanged = false): Promise<CheckpointEvent> {
    const checkpointId = `cp_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const label = `${checkpointId} of session ${this.options.sessionId}`;
    const settled = await Promise.allSettled(this.repos.map((repo) => repo.snapshot(label, { foldersUnchanged })));
    const roots: CheckpointEvent['roots'] = [];
    const problems: string[] = this.pendingProblems.splice(0);
    settled.forEach((outcome, index) => {
      const root = this.repos[index]!.root;
      if (outcome.status === 'rejected') {
        problems.push(failureText(root, outcome.reason));
        return;
      }
      roots.push({ root, commit: outcome.value.commit });
      const earlier = outcome.value.created && (this.recordedRoots.has(root) || (this.options.hadCheckpoints?.() ?? false));
      problems.push(...problemsOf(outcome.value, earlier, this.options.settings.maxFileBytes));
      this.recordedRoots.add(root);
    });
    const event = makeEvent('checkpoint', { sessionId: this.options.sessionId, checkpointId, toolCallId, moment, roots, problems });
    this.options.emit(event);
    return event;
  }
}
