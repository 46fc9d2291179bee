/**
 * The contract requests behind the composer's habits: sending a prompt through the core's one
 * prompt path (slash commands, @mentions, images), uploading an image, fetching a stored one,
 * and the completions for `/` and `@`.
 */
import { CommandError, listCommands } from '../commands/slash-commands';
import { loadAttachment } from '../prompt/attachment-store';
import { ImageRefused } from '../prompt/images';
import { completeMentions } from '../prompt/mention-completion';
import { sendPrompt, stageImage } from '../prompt/send-prompt';
import { NothingToResumeError } from '../sessions/resume-prompt';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError, type Handlers } from './dispatch';

type PromptHandlers = Pick<Handlers, 'session:send' | 'session:retry' | 'session:addImage' | 'session:attachment' | 'command:list' | 'mention:complete'>;

export function createPromptHandlers(manager: SessionManager, dataDir: string, beforeRun: (sessionId: string) => void, log: (message: string) => void): PromptHandlers {
  const requireSession = (sessionId: string) => {
    const record = manager.getSession(sessionId);
    if (!record) throw ApiError.notFound(`no session with id ${sessionId}`);
    return record;
  };
  return {
    'session:send': async ({ sessionId, text, images }) => {
      requireSession(sessionId);
      if (!manager.isRunning(sessionId) && !text.trimStart().startsWith('/')) beforeRun(sessionId);
      try {
        const sent = await sendPrompt(manager, sessionId, { text, images: images ?? [] }, { coveHome: dataDir });
        if (sent.kind === 'answer') return { steered: false, answer: { command: sent.command, text: sent.text } };
        // The run reports through events; its end is not this request's answer.
        sent.run?.catch((error: unknown) => log(`run of ${sessionId} failed to start: ${(error as Error).message}`));
        return { steered: sent.steered };
      } catch (error) {
        if (error instanceof CommandError || error instanceof ImageRefused) throw ApiError.invalid(error.message);
        throw error;
      }
    },
    'session:retry': ({ sessionId }) => {
      requireSession(sessionId);
      if (manager.isRunning(sessionId)) throw ApiError.conflict(`session ${sessionId} is running; there is nothing to retry`);
      beforeRun(sessionId);
      let run: Promise<unknown>;
      try {
        run = manager.retry(sessionId);
      } catch (error) {
        if (error instanceof NothingToResumeError) throw ApiError.conflict(error.message);
        throw error;
      }
      run.catch((error: unknown) => log(`retry of ${sessionId} failed to start: ${(error as Error).message}`));
      return { started: true as const };
    },
    'session:addImage': async ({ sessionId, name, data }) => {
      requireSession(sessionId);
      try {
        return (await stageImage(dataDir, sessionId, { name, data: Buffer.from(data, 'base64') })).attachment;
      } catch (error) {
        if (error instanceof ImageRefused) throw ApiError.invalid(error.message);
        throw error;
      }
    },
    'session:attachment': ({ sessionId, attachmentId }) => {
      requireSession(sessionId);
      try {
        const { mediaType, data } = loadAttachment(dataDir, sessionId, attachmentId);
        return { mediaType, data: data.toString('base64') };
      } catch (error) {
        throw ApiError.notFound((error as Error).message);
      }
    },
    'command:list': ({ sessionId }) => ({ commands: listCommands({ workspaces: requireSession(sessionId).workspaces, coveHome: dataDir }) }),
    'mention:complete': ({ sessionId, prefix }) => ({ paths: completeMentions(requireSession(sessionId).workspaces, prefix) }),
  };
}
