/**
 * The built-in slash commands, answered by Cove itself: all without a model call but
 * `/compact`, which asks the model for the summary that replaces the older turns.
 */
import type { SessionManager } from '../sessions/session-manager';
import { CommandError, type BuiltinName } from '../commands/slash-commands';

const MODEL_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export async function runBuiltin(manager: SessionManager, sessionId: string, name: BuiltinName, args: string): Promise<string> {
  const session = manager.getSession(sessionId);
  if (!session) throw new CommandError(`no session with id ${sessionId}`);
  switch (name) {
    case 'cost': {
      const { usage } = session;
      const tokens = (count: number) => count.toLocaleString('en-US');
      return `This session: $${session.costUsd.toFixed(4)} · ${tokens(usage.input)} input, ${tokens(usage.output)} output, ${tokens(usage.cacheRead)} cache read, ${tokens(usage.cacheWrite)} cache write tokens (model ${session.model})`;
    }
    case 'model': {
      if (!args) return `This session uses ${session.model}. Switch with /model <model id>.`;
      if (!MODEL_ID.test(args)) throw new CommandError(`/model: '${args}' is not a model id (letters, digits, '.', '_', ':' and '-')`);
      manager.updateSession(sessionId, { model: args });
      return `Model set to ${args}${manager.isRunning(sessionId) ? ' from the next prompt on (the current run keeps its model)' : ''}.`;
    }
    case 'clear': {
      if (manager.isRunning(sessionId)) throw new CommandError('/clear: the session is running; stop it first');
      manager.store.replaceMessages(sessionId, []);
      return 'Conversation cleared: the next prompt starts afresh. The transcript stays in the session for you to read.';
    }
    case 'compact': {
      if (manager.isRunning(sessionId)) throw new CommandError('/compact: the session is running; stop it first (it also compacts by itself before the context window fills)');
      const { compacted } = await manager.compact(sessionId, args);
      return compacted
        ? 'Conversation compacted: the earlier turns are replaced by a summary; the latest exchange is kept as it was. The transcript stays in the session for you to read.'
        : 'Nothing was compacted: the conversation is too short, or no summary came back (the history is kept as it is).';
    }
  }
}
