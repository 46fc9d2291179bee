/**
 * `@path` in a prompt: the file is attached as `read_file` would show it (the same code path, so
 * the same workspace sandbox, size and binary checks, paging and hashline header), redacted
 * with the session's secrets; a folder is attached as `list_files` shows it. A mention that
 * cannot be read stays plain text in the prompt and is reported, never silently dropped.
 * `@"a path with spaces"` is quoted; an `@` inside a word (an e-mail address) is no mention.
 */
import { statSync } from 'node:fs';
import { ToolError, type ConversationBlock, type SecretRedactor, type SnapshotStore, type ToolContext, type ToolResult } from '../agent/types';
import { listFilesTool } from '../tools/list-files';
import { readFileTool } from '../tools/read-file';
import { resolveInWorkspace } from '../tools/sandbox';
import type { PromptAttachment } from '../../../shared/events';

export const MAX_MENTIONS = 20;
/** All mentions of one prompt together: each is capped by read_file, twenty of them would not be. */
export const MAX_MENTION_CHARS = 512 * 1024;

export function findMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|[\s(])@(?:"([^"\n]+)"|([^\s"'`]+))/g)) {
    const path = match[1] ?? match[2]!.replace(/[.,;:!?)\]]+$/, '');
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}

export interface MentionEnv {
  workspaceRoots: readonly string[];
  secrets: SecretRedactor;
  snapshots: SnapshotStore;
  sessionId: string;
  signal?: AbortSignal;
}

export async function attachMentions(text: string, env: MentionEnv): Promise<{ blocks: ConversationBlock[]; attachments: PromptAttachment[] }> {
  const blocks: ConversationBlock[] = [];
  const attachments: PromptAttachment[] = [];
  const mentions = findMentions(text);
  let chars = 0;
  for (const [index, path] of mentions.entries()) {
    if (index >= MAX_MENTIONS) {
      attachments.push({ kind: 'file', path, error: `only the first ${MAX_MENTIONS} mentions of a prompt are attached` });
      continue;
    }
    try {
      const result = await readMention(path, env);
      const added = toBlocks(path, result, env.secrets);
      const size = added.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
      if (chars + size > MAX_MENTION_CHARS) {
        attachments.push({ kind: 'file', path, error: `the prompt's mentions would exceed ${MAX_MENTION_CHARS / 1024} KB of text; ask the agent to read it instead` });
        continue;
      }
      chars += size;
      blocks.push(...added);
      attachments.push({ kind: 'file', path });
    } catch (error) {
      attachments.push({ kind: 'file', path, error: (error as Error).message });
    }
  }
  return { blocks, attachments };
}

function readMention(path: string, env: MentionEnv): Promise<ToolResult> {
  const target = resolveInWorkspace(path, env.workspaceRoots);
  if (!target.exists) throw ToolError.notFound(`${path} does not exist`);
  const context: ToolContext = {
    toolCallId: `mention:${path}`,
    toolName: 'read_file',
    signal: env.signal ?? new AbortController().signal,
    onUpdate: () => {},
    onProgress: () => {},
    workspaceRoots: env.workspaceRoots,
    secrets: env.secrets,
    sessionId: env.sessionId,
    cwd: env.workspaceRoots[0]!,
    snapshots: env.snapshots,
  };
  if (statSync(target.absolute).isDirectory()) return listFilesTool.execute({ path, max_depth: 2 }, { ...context, toolName: 'list_files' });
  return readFileTool.execute({ path }, context);
}

function toBlocks(path: string, result: ToolResult, secrets: SecretRedactor): ConversationBlock[] {
  return result.content.map((part): ConversationBlock => {
    if (part.type === 'image') return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    return { type: 'text', text: `<attached-file mention="@${path}">\n${secrets.redact(part.text).text}\n</attached-file>` };
  });
}
