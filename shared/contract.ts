/**
 * The typed contract between the renderer and the main process (SPEC §2). Every request has a
 * zod schema for its input, checked in main before any handler runs, and a result type; every
 * message main pushes to the renderer is a `HostEvent`. Electron IPC and the WebSocket of
 * `cove serve` carry exactly these shapes, so one edit here changes both ends.
 */
import { z } from 'zod';
import type { CoveEvent, PermissionRequestEvent, PromptAttachment, Usage } from './events';
import type { SettingsView, RuleCheckView, ApiKeyCheckView, ModelListView, McpStatusView, ProjectApprovalsView } from './settings-views';
import type { RewindReport, HunkRevertReport, UndoRevertReport, SessionChangesView, WorktreeView } from './review-views';

export type {
  PermissionRules,
  RuleSource,
  ApiKeyStorageView,
  SettingsView,
  RuleCheckView,
  ApiKeyCheckView,
  ModelChoice,
  ModelListView,
  McpServerView,
  McpStatusView,
  ProjectApprovalItem,
  ProjectApprovalsView,
} from './settings-views';
export type { RewindReport, ChangedFileView, HunkRevertReport, UndoRevertReport, SessionChangesView, RevertView, WorktreeChangesView, WorktreeView } from './review-views';

/** Marks a request's result type; carries no runtime value. */
function result<T>(): T {
  return undefined as T;
}

const id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an id');
const path = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\0'), 'must not contain NUL');
const permissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypass']);
const ruleList = z.enum(['allow', 'ask', 'deny']);
/** The settings files Settings can edit (Claude Code's are read only). */
const ruleFile = z.enum(['user', 'project', 'local']);
const attachmentId = z.string().regex(/^[0-9a-f]{32}\.(png|jpg|gif|webp)$/, 'must be an attachment id');
/** A socket frame holds 8 MB: an upload of about 5.6 MB of image, base64. */
export const IMAGE_UPLOAD_CHARS = 7_500_000;
const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const model = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, 'must be a model id');

export type SessionStatus = 'idle' | 'running' | 'waiting' | 'done' | 'error' | 'aborted' | 'interrupted';

export interface SessionSummary {
  id: string;
  title: string;
  workspaces: string[];
  model: string;
  permissionMode: string;
  status: SessionStatus;
  createdAt: number;
  updatedAt: number;
  usage: Usage;
  costUsd: number;
  /** False when the session's model has no published price: its cost is unknown, not zero. */
  costKnown?: boolean;
  /** Permission prompts waiting for an answer in this session. */
  pendingPermissions: number;
  /** The last run's error, when it ended in one. */
  lastError: string | null;
  /** The persona the session acts as, if any. */
  persona: string | null;
}

/** A published event, with its position in the session's log (stored and live alike). */
export type SessionEvent = CoveEvent & { seq: number };

export interface SessionView {
  session: SessionSummary;
  /**
   * The latest events, oldest first: those with `fromSeq` < seq ≤ `lastSeq`, enough for the
   * first screen; the older ones come by `session:events`. A live event with seq ≤ `lastSeq`
   * is already in here (or before it).
   */
  events: SessionEvent[];
  fromSeq: number;
  lastSeq: number;
  /** Prompts still waiting for an answer. */
  pending: PermissionRequestEvent[];
}

export interface SearchResult {
  sessionId: string;
  title: string;
  snippet: string;
  /** How many of the session's messages match; the session opens at the snippet's one. */
  matches?: number;
  updatedAt: number;
  workspaces: string[];
  status: SessionStatus;
}

export interface PersonaList {
  personas: Array<{ name: string; description: string; tools: string[] | null }>;
  active: string | null;
  problems: string[];
}

/** A slash command the composer offers: a built-in or a custom command file. */
export interface CommandView {
  name: string;
  description: string;
  argumentHint: string | null;
  source: 'builtin' | 'project' | 'user';
  file: string | null;
  /** Why the command cannot run (its file's problem), shown beside it. */
  problem: string | null;
}

export type ImageAttachment = Extract<PromptAttachment, { kind: 'image' }>;

export interface AppInfo {
  version: string;
  host: 'desktop' | 'browser';
  platform: string;
  homeDir: string;
  /** Whether `workspace:reveal` works here (the desktop app), for the Reveal button. */
  canReveal?: boolean;
  /** Said once when bash's OS sandbox cannot run (every bash call then asks), or null. */
  sandboxNotice: string | null;
}

export const requests = {
  'app:info': { input: z.object({}).strict(), result: result<AppInfo>() },

  /** Newest first, `limit` at a time (500 when absent); `before` is the last session of the page before, for the next page. */
  'session:list': {
    input: z
      .object({
        limit: z.number().int().min(1).max(1000).optional(),
        before: z
          .object({ updatedAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), id })
          .strict()
          .optional(),
      })
      .strict(),
    result: result<SessionSummary[]>(),
  },
  'session:create': {
    input: z
      .object({
        workspaces: z.array(path).min(1).max(16),
        title: z.string().max(200).optional(),
        model: model.optional(),
        permissionMode: permissionMode.optional(),
        /** Work in a git worktree of its own, on a new branch `cove/<short id>` (the first workspace must be in a git repository). */
        worktree: z.boolean().optional(),
      })
      .strict(),
    result: result<SessionSummary>(),
  },
  /** The session's own worktree, or null when it works in the person's folders. */
  'session:worktree': { input: z.object({ sessionId: id }).strict(), result: result<{ worktree: WorktreeView | null }>() },
  /** Merges the worktree's branch into the branch the repository was on, then removes both; refused with nothing changed on a conflict. */
  'session:mergeWorktree': { input: z.object({ sessionId: id }).strict(), result: result<{ commit: string; commits: number; fastForward: boolean; workspace: string }>() },
  /** Removes the session's worktree and branch with the work on them. */
  'session:discardWorktree': { input: z.object({ sessionId: id }).strict(), result: result<{ workspace: string }>() },
  /** Whether a session started in this folder can have a worktree, and why not. */
  'workspace:worktreeSupport': { input: z.object({ path }).strict(), result: result<{ available: boolean; reason?: string; branch?: string }>() },
  'session:open': { input: z.object({ sessionId: id }).strict(), result: result<SessionView>() },
  /** A range of a session's log by seq: afterSeq < seq ≤ untilSeq (the end when absent), oldest first. */
  'session:events': {
    input: z.object({ sessionId: id, afterSeq: seq, untilSeq: seq.optional(), limit: z.number().int().min(1).max(100_000).optional() }).strict(),
    result: result<{ events: SessionEvent[] }>(),
  },
  'session:send': {
    input: z
      .object({
        sessionId: id,
        text: z.string().min(1).max(500_000),
        /** Images added with `session:addImage`, by id, with the name the person knows them by. */
        images: z
          .array(z.object({ attachmentId, name: z.string().min(1).max(255) }).strict())
          .max(20)
          .optional(),
      })
      .strict(),
    /** `answer`: a built-in command (/cost, /model, /clear) answered without a run. */
    result: result<{ steered: boolean; answer?: { command: string; text: string } }>(),
  },
  /** Retry after a failed run, Resume after an interrupted one: runs again from the stored history, the prompt not sent twice. */
  'session:retry': { input: z.object({ sessionId: id }).strict(), result: result<{ started: true }>() },
  /** Checks, downscales and stores an image for the next prompt; the data is base64. */
  'session:addImage': {
    input: z.object({ sessionId: id, name: z.string().min(1).max(255), data: z.string().min(1).max(IMAGE_UPLOAD_CHARS) }).strict(),
    result: result<ImageAttachment>(),
  },
  /** An image attached to one of the session's prompts, base64. */
  'session:attachment': { input: z.object({ sessionId: id, attachmentId }).strict(), result: result<{ mediaType: string; data: string }>() },
  /** The slash commands a session's composer completes: built-ins, then the workspace's and the user's files. */
  'command:list': { input: z.object({ sessionId: id }).strict(), result: result<{ commands: CommandView[] }>() },
  /** Workspace paths that complete an `@` mention. */
  'mention:complete': { input: z.object({ sessionId: id, prefix: z.string().max(1000) }).strict(), result: result<{ paths: string[] }>() },
  'session:stop': { input: z.object({ sessionId: id }).strict(), result: result<{ stopped: boolean }>() },
  'session:rename': { input: z.object({ sessionId: id, title: z.string().trim().min(1).max(200) }).strict(), result: result<SessionSummary>() },
  'session:delete': { input: z.object({ sessionId: id }).strict(), result: result<{ deleted: boolean }>() },
  'session:search': { input: z.object({ text: z.string().trim().min(1).max(500) }).strict(), result: result<SearchResult[]>() },
  'session:addWorkspace': { input: z.object({ sessionId: id, path }).strict(), result: result<SessionSummary>() },
  'session:setMode': { input: z.object({ sessionId: id, permissionMode }).strict(), result: result<SessionSummary>() },
  /** Per prompt and for the whole session, each changed file with its diff, from the session's checkpoints. */
  'session:changes': { input: z.object({ sessionId: id }).strict(), result: result<SessionChangesView>() },
  /** Puts the session's files back as they were before prompt `toPrompt` (default: the latest that changed files). */
  'session:rewind': {
    input: z
      .object({
        sessionId: id,
        toPrompt: z.number().int().min(1).optional(),
        dryRun: z.boolean().optional(),
        force: z.boolean().optional(),
        /** Only these files (absolute paths), as the review pane's "Revert file" asks. */
        paths: z.array(path).min(1).max(1000).optional(),
        /** Cut the conversation back to before the prompt too: the model's next request starts from there. */
        cutConversation: z.boolean().optional(),
      })
      .strict(),
    result: result<RewindReport>(),
  },

  /** Reverses one hunk of a file's change (a prompt's, or the whole session's when `prompt` is absent) against the file as it is now. */
  'session:revertHunk': {
    input: z.object({ sessionId: id, prompt: z.number().int().min(1).optional(), root: path, path: z.string().min(1).max(4096), hunk: z.number().int().min(0).max(100_000) }).strict(),
    result: result<HunkRevertReport>(),
  },

  /** Undoes the review pane's revert recorded at `seq` (a `revert` event), itself recorded as one. */
  'session:undoRevert': { input: z.object({ sessionId: id, seq: z.number().int().min(0) }).strict(), result: result<UndoRevertReport>() },

  /** Checks that a path is a readable folder; answers its real path. */
  'workspace:check': { input: z.object({ path }).strict(), result: result<{ path: string; name: string }>() },
  /** Shows one of the session's workspace folders in the OS file manager (desktop app only; see AppInfo.canReveal). */
  'workspace:reveal': { input: z.object({ sessionId: id, path }).strict(), result: result<{ revealed: true }>() },
  /** Folder names that complete a typed path (the browser has no folder picker). */
  'workspace:complete': { input: z.object({ prefix: z.string().max(4096) }).strict(), result: result<{ folders: string[] }>() },

  'permission:answer': {
    input: z
      .object({
        sessionId: id,
        requestId: id,
        decision: z.enum(['allow', 'deny']),
        scope: z.enum(['once', 'session', 'always']).optional(),
        /** The rule to save for `always`, as the person edited it. */
        rule: z.string().trim().min(1).max(2000).optional(),
        /** What the person wants instead, for a denial; the model reads it. */
        reason: z.string().trim().min(1).max(2000).optional(),
      })
      .strict(),
    result: result<{ answered: boolean }>(),
  },
  'permission:pending': { input: z.object({}).strict(), result: result<PermissionRequestEvent[]>() },

  'settings:get': { input: z.object({ workspace: path.optional() }).strict(), result: result<SettingsView>() },
  'models:list': { input: z.object({}).strict(), result: result<ModelListView>() },
  'settings:update': { input: z.object({ model: model.optional(), permissionMode: permissionMode.optional() }).strict(), result: result<SettingsView>() },
  'settings:setApiKey': {
    input: z
      .object({
        apiKey: z.string().trim().min(1).max(500).nullable(),
        /** The person's consent to keep the key unencrypted in a file only they can read, where no keychain exists. */
        unprotectedFile: z.literal(true).optional(),
      })
      .strict(),
    result: result<SettingsView>(),
  },
  /** Deletes a rule; `file` defaults to `local` (this machine's grants for the project). */
  'settings:removeRule': {
    input: z.object({ workspace: path.optional(), file: ruleFile.optional(), list: ruleList, rule: z.string().min(1).max(2000) }).strict(),
    result: result<SettingsView>(),
  },
  /** Adds a rule to a settings file, or with `replaces` edits one in place. */
  'settings:saveRule': {
    input: z.object({ workspace: path.optional(), file: ruleFile, list: ruleList, rule: z.string().trim().min(1).max(2000), replaces: z.string().min(1).max(2000).optional() }).strict(),
    result: result<SettingsView>(),
  },
  /** Checks a rule's syntax as it is typed, with the parser the permission engine uses. */
  'settings:checkRule': { input: z.object({ rule: z.string().max(2000) }).strict(), result: result<RuleCheckView>() },
  /** Asks the API whether a key works, before it is saved (the Models API, which costs nothing). */
  'settings:checkApiKey': { input: z.object({ apiKey: z.string().trim().min(1).max(500) }).strict(), result: result<ApiKeyCheckView>() },

  /** MCP servers of a workspace: connected, failed (with why), tool counts, stderr tails. */
  'mcp:status': { input: z.object({ workspace: path }).strict(), result: result<McpStatusView>() },

  /** The hooks and MCP servers a workspace brings, and whether each is approved. */
  'approval:list': { input: z.object({ workspace: path }).strict(), result: result<ProjectApprovalsView>() },
  /** Approves the named items (or every pending one) of a workspace, pinned to their content. */
  'approval:approve': {
    input: z
      .object({
        workspace: path,
        ids: z
          .array(z.string().regex(/^[0-9a-f]{64}$/, 'must be an item id'))
          .max(500)
          .optional(),
      })
      .strict(),
    result: result<ProjectApprovalsView>(),
  },

  'persona:list': { input: z.object({ sessionId: id }).strict(), result: result<PersonaList>() },
  'session:setPersona': { input: z.object({ sessionId: id, persona: z.string().min(1).max(64).nullable() }).strict(), result: result<SessionSummary>() },

  'subagent:cancel': { input: z.object({ sessionId: id, subagentId: id }).strict(), result: result<{ cancelled: boolean }>() },
} as const;

export type RequestName = keyof typeof requests;
export type RequestInput<K extends RequestName> = z.input<(typeof requests)[K]['input']>;
export type RequestResult<K extends RequestName> = (typeof requests)[K]['result'];

export const REQUEST_NAMES = Object.keys(requests) as RequestName[];

/** `noApiKey`: a run cannot start without a key; the person adds one in Settings. */
export type ErrorCode = 'invalidInput' | 'unknownRequest' | 'notFound' | 'conflict' | 'failed' | 'unauthorized' | 'noApiKey';

/** Nothing throws across the bridge: every answer is one of these. */
export type Response<T = unknown> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };

/**
 * What main pushes to windows and tabs. A session's high-rate events (`STREAM_EVENT_TYPES`) go
 * only to those that watch it; every other event goes to all of them.
 */
export type HostEvent = { kind: 'agent'; event: SessionEvent } | { kind: 'sessionChanged'; session: SessionSummary } | { kind: 'sessionDeleted'; sessionId: string };

/** The events a window gets only for the sessions it watches: the streams of a session it shows. */
export const STREAM_EVENT_TYPES: ReadonlySet<CoveEvent['type']> = new Set(['messageUpdate', 'toolExecutionUpdate', 'progressMessage']);

/**
 * The sessions whose high-rate events a window or tab wants, the whole set each time (so a
 * reconnect simply says it again); like VS Code's `listen(event, arg)`, scoped per session.
 */
export const watchInput = z.object({ sessionIds: z.array(id).max(64) }).strict();
export type WatchInput = z.input<typeof watchInput>;

/** One client of the contract: a method per request, and a subscription to host events. */
export type CoveApi = {
  [K in RequestName]: (input: RequestInput<K>) => Promise<Response<RequestResult<K>>>;
} & {
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Sets the sessions this window watches (see `watchInput`). */
  watch(input: WatchInput): Promise<Response<{ watching: string[] }>>;
};

/** The WebSocket frames of `cove serve`. */
export type ClientFrame = { type: 'request'; id: number; name: string; input: unknown } | { type: 'watch'; id: number; input: unknown };
export type ServerFrame = { type: 'response'; id: number; response: Response } | { type: 'event'; event: HostEvent };
