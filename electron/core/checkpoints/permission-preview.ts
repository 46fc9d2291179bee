/**
 * The change a file edit would make, shown in its permission prompt before anyone allows it.
 * The preview is the tool's own dry run: the files it names are copied into a scratch folder
 * laid out like the workspace and the real tool runs there, so the diff (or the reason the edit
 * would fail) is exactly what allowing it would give. Redacted and bounded like any tool output.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { PermissionPreview } from '../../../shared/events';
import type { SecretRedactor, SnapshotStore, Tool } from '../agent/types';
import { parsePatch } from '../tools/hashline-patch';
import { resolveInWorkspace, type WorkspacePath } from '../tools/sandbox';
import type { Prompter } from '../sessions/permission-prompts';

export const PREVIEWED_TOOLS = new Set(['write_file', 'edit_file', 'hashline_edit']);
export const MAX_PREVIEW_CHARS = 20_000;
/** A file larger than this is not copied for a preview; the prompt says why there is none. */
const MAX_PREVIEW_FILE_BYTES = 2 * 1024 * 1024;

export interface PreviewEnvironment {
  workspaceRoots: readonly string[];
  snapshots: SnapshotStore;
  secrets(): SecretRedactor | Promise<SecretRedactor>;
}

function pathsOf(toolName: string, args: unknown): string[] {
  const record = (args ?? {}) as Record<string, unknown>;
  if (toolName === 'hashline_edit') return typeof record.patch === 'string' ? parsePatch(record.patch).map((section) => section.path) : [];
  return typeof record.path === 'string' ? [record.path] : [];
}

function bounded(text: string): string {
  return text.length <= MAX_PREVIEW_CHARS ? text : `${text.slice(0, MAX_PREVIEW_CHARS)}\n… preview cut at ${MAX_PREVIEW_CHARS} characters\n`;
}

/** The call's arguments with every absolute path into a real root moved into its scratch twin. */
function retarget(args: unknown, roots: readonly string[], scratch: readonly string[]): unknown {
  const move = (text: string) => roots.reduce((value, root, index) => value.split(root).join(scratch[index]!), text);
  const record = { ...(args as Record<string, unknown>) };
  if (typeof record.path === 'string' && isAbsolute(record.path)) record.path = move(record.path);
  if (typeof record.patch === 'string') record.patch = record.patch.replace(/^\[(\/[^\]#]*)#/gm, (_, path: string) => `[${move(path)}#`);
  return record;
}

export async function previewChange(tool: Tool, args: unknown, env: PreviewEnvironment): Promise<PermissionPreview> {
  let targets: WorkspacePath[];
  try {
    targets = pathsOf(tool.name, args).map((path) => resolveInWorkspace(path, env.workspaceRoots));
  } catch (error) {
    return { error: (error as Error).message };
  }
  const roots = targets.length > 0 ? env.workspaceRoots.map((root) => realpathSync(root)) : [];
  const scratchFolder = realpathSync(mkdtempSync(join(tmpdir(), 'cove-preview-')));
  try {
    const scratch = env.workspaceRoots.map((_, index) => join(scratchFolder, `root${index}`));
    for (const root of scratch) mkdirSync(root);
    for (const target of targets) {
      if (!target.exists) continue;
      const stats = statSync(target.absolute);
      if (!stats.isFile()) continue;
      if (stats.size > MAX_PREVIEW_FILE_BYTES) return { error: `${target.display} is too large to preview (${stats.size} bytes); allowing the call edits it without one` };
      const copy = join(scratch[Math.max(0, roots.indexOf(target.root))]!, target.relative);
      mkdirSync(dirname(copy), { recursive: true });
      copyFileSync(target.absolute, copy);
      chmodSync(copy, stats.mode & 0o777);
    }
    const back = (text: string) => scratch.reduce((value, root, index) => value.split(root).join(roots[index] ?? env.workspaceRoots[index]!), text);
    const secrets = await env.secrets();
    const redact = (text: string) => (secrets.redactLines ?? secrets.redact).call(secrets, text).text;
    const newFile = tool.name === 'write_file' && targets.length === 1 && !targets[0]!.exists;
    try {
      const result = await tool.execute(retarget(args, roots, scratch), {
        toolCallId: 'permission-preview',
        toolName: tool.name,
        signal: new AbortController().signal,
        onUpdate: () => undefined,
        onProgress: () => undefined,
        workspaceRoots: scratch,
        secrets,
        sessionId: 'permission-preview',
        cwd: scratch[0]!,
        // What the model was shown still locates hashline edits; the dry run teaches the store nothing.
        snapshots: { recall: (path, tag) => env.snapshots.recall(path, tag), remember: () => undefined },
      });
      return { diff: bounded(redact(back(result.diff ?? ''))), ...(newFile ? { newFile } : {}) };
    } catch (error) {
      return { error: bounded(redact(back((error as Error)?.message ?? String(error)))) };
    }
  } catch (error) {
    return { error: `no preview: ${(error as Error).message}` };
  } finally {
    rmSync(scratchFolder, { recursive: true, force: true });
  }
}

/** A prompter that adds the preview of a file edit to its prompt; other prompts pass as they are. */
export function previewingPrompter(prompter: Prompter, tools: () => readonly Tool[], env: PreviewEnvironment): Prompter {
  return async (request, signal) => {
    if (!PREVIEWED_TOOLS.has(request.toolName) || request.preview) return prompter(request, signal);
    const tool = tools().find((candidate) => candidate.name === request.toolName);
    const preview = tool ? await previewChange(tool, request.args, env) : undefined;
    return prompter(preview ? { ...request, preview } : request, signal);
  };
}
