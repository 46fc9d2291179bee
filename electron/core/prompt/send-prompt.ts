/**
 * A prompt from a person, as every host sends it (`cove run`, the desktop window, `cove serve`):
 * a leading `/name` runs a built-in or a custom command, `@path` mentions attach files, images
 * are checked, downscaled and stored beside the session, and a `userMessage` event records the
 * prompt as typed with what came with it. Whatever is wrong with the input is thrown before
 * anything runs, with a message naming the command, file or image.
 */
import type { PromptAttachment } from '../../../shared/events';
import type { RunOutcome } from '../agent/agent';
import type { ConversationBlock } from '../agent/types';
import { resolvePrompt } from '../commands/slash-commands';
import type { RunSettings, SessionManager } from '../sessions/session-manager';
import { saveAttachment } from './attachment-store';
import { runBuiltin } from './builtin-commands';
import { ImageRefused, MAX_IMAGES_PER_PROMPT, prepareImage } from './images';
import { attachMentions } from './mentions';

export interface PromptImage {
  name: string;
  data: Buffer;
}

export interface PromptEnv {
  coveHome: string;
  /** The user's home, for `~/.claude/commands`. */
  home?: string;
}

export type SendOutcome =
  | { kind: 'answer'; command: string; text: string }
  | { kind: 'run'; steered: boolean; run?: Promise<RunOutcome>; attachments: PromptAttachment[] };

export async function sendPrompt(
  manager: SessionManager,
  sessionId: string,
  input: { text: string; images?: readonly PromptImage[] },
  env: PromptEnv,
  settings: RunSettings = {},
): Promise<SendOutcome> {
  const session = manager.getSession(sessionId);
  if (!session) throw new Error(`no session with id ${sessionId}`);
  const resolved = resolvePrompt(input.text, { workspaces: session.workspaces, coveHome: env.coveHome, home: env.home });
  if (resolved.kind === 'builtin') {
    const text = runBuiltin(manager, sessionId, resolved.name, resolved.args);
    manager.recordUserMessage(sessionId, { text: input.text, steered: false, command: resolved.name });
    return { kind: 'answer', command: resolved.name, text };
  }
  const running = manager.isRunning(sessionId);
  const images = input.images ?? [];
  if (images.length > 0 && running) throw new ImageRefused('images go with a new prompt: wait for the run to end, or stop it, then send them');
  if (images.length > MAX_IMAGES_PER_PROMPT) throw new ImageRefused(`${images.length} images in one prompt; send at most ${MAX_IMAGES_PER_PROMPT}`);
  const imageBlocks: ConversationBlock[] = [];
  const attachments: PromptAttachment[] = [];
  for (const image of images) {
    const prepared = await prepareImage(image.name, image.data);
    const attachmentId = saveAttachment(env.coveHome, sessionId, prepared.mediaType, prepared.data);
    imageBlocks.push({ type: 'image', source: { type: 'base64', media_type: prepared.mediaType, data: prepared.data.toString('base64') } });
    const { name, mediaType, width, height, resized } = prepared;
    attachments.push({ kind: 'image', attachmentId, name, mediaType, width, height, bytes: prepared.data.length, resized });
  }
  const mentions = await attachMentions(resolved.prompt, {
    workspaceRoots: session.workspaces,
    secrets: await manager.secretsOf(sessionId),
    snapshots: manager.snapshotsOf(sessionId),
    sessionId,
  });
  attachments.push(...mentions.attachments);
  const fields = { text: input.text, steered: running, ...(resolved.command ? { command: resolved.command } : {}), ...(attachments.length > 0 ? { attachments } : {}) };
  if (running) {
    // A steering message is text only: the attached files go inline.
    const inline = mentions.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    manager.recordUserMessage(sessionId, fields);
    return { kind: 'run', steered: manager.send(sessionId, [resolved.prompt, ...inline].join('\n\n'), settings).steered, attachments };
  }
  const sent = manager.send(sessionId, resolved.prompt, { ...settings, attachments: [...imageBlocks, ...mentions.blocks] });
  manager.recordUserMessage(sessionId, fields);
  return { kind: 'run', steered: sent.steered, run: sent.run, attachments };
}

