/**
 * Suggestions for the word under the caret: slash commands (`command:list`, fetched once per
 * session and filtered here) or workspace paths for an `@` mention (`mention:complete`, asked
 * as the person types, the answer to a stale query dropped).
 */
import { useEffect, useState } from 'react';
import type { CommandView } from '../../../shared/contract';
import { call } from '../../transport/client';
import type { CompletionToken } from './completion-token';

export interface Suggestion {
  value: string;
  label: string;
  detail: string;
  problem: string | null;
}

const MENTION_DELAY_MS = 100;
const MAX_SUGGESTIONS = 12;

export function useCompletions(sessionId: string | undefined, token: CompletionToken | null): Suggestion[] {
  const [commands, setCommands] = useState<CommandView[] | null>(null);
  const [paths, setPaths] = useState<string[]>([]);
  const wantsCommands = token?.kind === 'command';

  useEffect(() => {
    setCommands(null);
  }, [sessionId]);

  useEffect(() => {
    // Read again each time a `/` starts the message: command files may have changed meanwhile.
    if (!sessionId || !wantsCommands) return;
    let current = true;
    void call('command:list', { sessionId }).then((response) => {
      if (current && response.ok) setCommands(response.value.commands);
    });
    return () => {
      current = false;
    };
  }, [sessionId, wantsCommands]);

  const mentionQuery = token?.kind === 'mention' ? token.query : null;
  useEffect(() => {
    if (!sessionId || mentionQuery === null) {
      setPaths([]);
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      const response = await call('mention:complete', { sessionId, prefix: mentionQuery });
      if (current && response.ok) setPaths(response.value.paths);
    }, MENTION_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [sessionId, mentionQuery]);

  if (!token || !sessionId) return [];
  if (token.kind === 'command') {
    const query = token.query.toLowerCase();
    return (commands ?? [])
      .filter((command) => command.name.toLowerCase().startsWith(query))
      .slice(0, MAX_SUGGESTIONS)
      .map((command) => ({
        value: command.name,
        label: `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`,
        detail: command.problem ?? command.description,
        problem: command.problem,
      }));
  }
  return paths.slice(0, MAX_SUGGESTIONS).map((path) => ({ value: path, label: `@${path}`, detail: '', problem: null }));
}
