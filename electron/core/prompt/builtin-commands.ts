/**
 * The built-in slash commands, answered by Cove itself without a model call. `/compact` is
 * listed because people type it, and answered with why it cannot run yet: the engine compacts
 * on its own before the context window fills and offers no way to ask for it.
 */
import type { SessionManager } from '../sessions/session-manager';
import { CommandError, type BuiltinName } from '../commands/slash-commands';

const MODEL_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export function runBuiltin(manager: SessionManager, sessionId: string, name: BuiltinName, args: string): string {
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
    case 'compact':
      throw new CommandError('/compact cannot run yet: Cove compacts the conversation by itself before the context window fills');
  }
}
