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
import { loadAttachment, saveAttachment } from './attachment-store';
import { runBuiltin } from './builtin-commands';
import { ImageRefused, MAX_IMAGES_PER_PROMPT, prepareImage } from './images';
import { attachMentions } from './mentions';

export interface PromptImage {
  name: string;
  data: Buffer;
}

/** An image already checked and stored by `stageImage` (the app uploads before it sends). */
export interface StagedImage {
  attachmentId: string;
  name?: string;
}

type ImageAttachment = Extract<PromptAttachment, { kind: 'image' }>;

/** Checks, downscales and stores an image; throws ImageRefused with the reason. */
export async function stageImage(coveHome: string, sessionId: string, image: PromptImage): Promise<{ attachment: ImageAttachment; block: ConversationBlock }> {
  const prepared = await prepareImage(image.name, image.data);
  const attachmentId = saveAttachment(coveHome, sessionId, prepared.mediaType, prepared.data);
  const { name, mediaType, width, height, resized } = prepared;
  return {
    attachment: { kind: 'image', attachmentId, name, mediaType, width, height, bytes: prepared.data.length, resized },
    block: imageBlock(mediaType, prepared.data),
  };
}

async function stagedImage(coveHome: string, sessionId: string, image: StagedImage): Promise<{ attachment: ImageAttachment; block: ConversationBlock }> {
  let stored;
  try {
    stored = loadAttachment(coveHome, sessionId, image.attachmentId);
  } catch (error) {
    throw new ImageRefused((error as Error).message);
  }
  // Stored images were prepared when they were added; reading the size again costs no decode.
  const prepared = await prepareImage(image.name ?? image.attachmentId, stored.data);
  const { name, mediaType, width, height } = prepared;
  return {
    attachment: { kind: 'image', attachmentId: image.attachmentId, name, mediaType, width, height, bytes: stored.data.length, resized: false },
    block: imageBlock(mediaType, prepared.data),
  };
}

function imageBlock(mediaType: string, data: Buffer): ConversationBlock {
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: data.toString('base64') } };
}

export interface PromptEnv {
  coveHome: string;
  /** The user's home, for `~/.claude/commands`. */
  home?: string;
}

export type SendOutcome = { kind: 'answer'; command: string; text: string } | { kind: 'run'; steered: boolean; run?: Promise<RunOutcome>; attachments: PromptAttachment[] };

export async function sendPrompt(
  manager: SessionManager,
  sessionId: string,
  input: { text: string; images?: ReadonlyArray<PromptImage | StagedImage> },
  env: PromptEnv,
  settings: RunSettings = {},
): Promise<SendOutcome> {
  const session = manager.getSession(sessionId);
  if (!session) throw new Error(`no session with id ${sessionId}`);
  const resolved = resolvePrompt(input.text, { workspaces: session.workspaces, coveHome: env.coveHome, home: env.home });
  if (resolved.kind === 'builtin') {
    const text = await runBuiltin(manager, sessionId, resolved.name, resolved.args);
    manager.recordUserMessage(sessionId, { text: input.text, steered: false, command: resolved.name, answer: text });
    return { kind: 'answer', command: resolved.name, text };
  }
  const running = manager.isRunning(sessionId);
  const images = input.images ?? [];
  if (images.length > 0 && running) throw new ImageRefused('images go with a new prompt: wait for the run to end, or stop it, then send them');
  if (images.length > MAX_IMAGES_PER_PROMPT) throw new ImageRefused(`${images.length} images in one prompt; send at most ${MAX_IMAGES_PER_PROMPT}`);
  const imageBlocks: ConversationBlock[] = [];
  const attachments: PromptAttachment[] = [];
  for (const image of images) {
    const staged = 'attachmentId' in image ? await stagedImage(env.coveHome, sessionId, image) : await stageImage(env.coveHome, sessionId, image);
    imageBlocks.push(staged.block);
    attachments.push(staged.attachment);
  }
  const mentions = await attachMentions(resolved.prompt, {
    workspaceRoots: session.workspaces,
    secrets: await manager.secretsOf(sessionId),
    snapshots: manager.snapshotsOf(sessionId),
    sessionId,
  });
  attachments.push(...mentions.attachments);
  // The manager publishes it as the prompt's userMessage, steered or not.
  const message = { text: input.text, ...(resolved.command ? { command: resolved.command } : {}), ...(attachments.length > 0 ? { attachments } : {}) };
  if (running) {
    // A steering message is text only: the attached files go inline.
    const inline = mentions.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    return { kind: 'run', steered: manager.send(sessionId, [resolved.prompt, ...inline].join('\n\n'), { ...settings, message }).steered, attachments };
  }
  const sent = manager.send(sessionId, resolved.prompt, { ...settings, message, attachments: [...imageBlocks, ...mentions.blocks] });
  return { kind: 'run', steered: sent.steered, run: sent.run, attachments };
}
