/**
 * `cove run`'s prompt with its `--image` files, sent through the core's one prompt path (slash
 * commands, @mentions, images). A problem with any of them (an unknown command, an unreadable
 * image) is a one-line failure before anything runs; a mention that cannot be attached is said
 * on stderr and the run goes on.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { RunOutcome } from '../core/agent/agent';
import { CommandError } from '../core/commands/slash-commands';
import { ImageRefused } from '../core/prompt/images';
import { sendPrompt, type PromptImage } from '../core/prompt/send-prompt';
import type { RunSettings, SessionManager } from '../core/sessions/session-manager';
import type { RunArgs } from './args';

export type CliSend = { kind: 'failed'; message: string } | { kind: 'answer'; command: string; text: string } | { kind: 'run'; run: Promise<RunOutcome> };

function readImages(paths: readonly string[]): PromptImage[] {
  return paths.map((path) => {
    try {
      return { name: basename(path), data: readFileSync(resolve(path)) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ImageRefused(`--image ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not an image' : (error as Error).message}`);
    }
  });
}

export async function sendCliPrompt(
  manager: SessionManager,
  sessionId: string,
  args: RunArgs,
  coveHome: string,
  settings: RunSettings,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<CliSend> {
  try {
    const sent = await sendPrompt(manager, sessionId, { text: args.prompt, images: readImages(args.images) }, { coveHome }, settings);
    if (sent.kind === 'answer') return sent;
    for (const attachment of sent.attachments) {
      if (attachment.kind === 'file' && attachment.error) warn(`cove: @${attachment.path} is not attached: ${attachment.error}`);
      if (attachment.kind === 'image' && attachment.resized) warn(`cove: ${attachment.name} was scaled down to ${attachment.width}×${attachment.height} to fit the API's image limits`);
    }
    return { kind: 'run', run: sent.run! };
  } catch (error) {
    if (error instanceof CommandError || error instanceof ImageRefused) return { kind: 'failed', message: error.message };
    throw error;
  }
}
