/**
 * What a prompt that starts with `/name` means: a built-in command (handled by Cove, no model
 * call), a custom command (its file's prompt, filled with the arguments), or, for a path such
 * as `/etc/hosts is wrong`, an ordinary prompt. Built-ins win over files of the same name.
 */
import type { CommandView } from '../../../shared/contract';
import { expandCommand } from './expand-command';
import { loadCommandFiles, type CommandFolders } from './command-files';

export type BuiltinName = 'clear' | 'compact' | 'model' | 'cost';

/** What the composer lists is what core knows of a command: one shape, declared in the contract. */
export type CommandInfo = CommandView;

export const BUILTIN_COMMANDS: ReadonlyArray<CommandInfo & { name: BuiltinName }> = [
  { name: 'clear', description: 'Start the conversation afresh; the transcript stays on screen', argumentHint: null, source: 'builtin', file: null, problem: null },
  { name: 'compact', description: 'Summarize the conversation so far to free context', argumentHint: '[what to keep]', source: 'builtin', file: null, problem: null },
  { name: 'cost', description: "This session's tokens and cost", argumentHint: null, source: 'builtin', file: null, problem: null },
  { name: 'model', description: 'Show the model, or switch this session to another one', argumentHint: '[model id]', source: 'builtin', file: null, problem: null },
];

export class CommandError extends Error {}

export function listCommands(folders: CommandFolders): CommandInfo[] {
  const builtin = new Set<string>(BUILTIN_COMMANDS.map((command) => command.name));
  const custom = loadCommandFiles(folders)
    .filter((command) => !builtin.has(command.name))
    .map(({ name, description, argumentHint, scope, file, problem }): CommandInfo => ({ name, description, argumentHint, source: scope, file, problem }));
  return [...BUILTIN_COMMANDS, ...custom];
}

export type ResolvedPrompt = { kind: 'prompt'; prompt: string; command?: string } | { kind: 'builtin'; name: BuiltinName; args: string };

const SLASH = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?=\s|$)([\s\S]*)$/;

/** Throws a CommandError naming the command when it is unknown or its file is broken. */
export function resolvePrompt(text: string, folders: CommandFolders): ResolvedPrompt {
  const match = SLASH.exec(text.trimStart());
  if (!match) return { kind: 'prompt', prompt: text };
  const [, name, rest] = match as unknown as [string, string, string];
  const builtin = BUILTIN_COMMANDS.find((command) => command.name === name);
  if (builtin) return { kind: 'builtin', name: builtin.name, args: rest.trim() };
  const command = loadCommandFiles(folders).find((candidate) => candidate.name === name);
  if (!command) {
    const known = listCommands(folders)
      .filter((candidate) => !candidate.problem)
      .map((candidate) => `/${candidate.name}`);
    throw new CommandError(`no command /${name}; the commands here are ${known.join(', ')} (custom ones live in .cove/commands/${name.replace(/:/g, '/')}.md)`);
  }
  if (command.problem) throw new CommandError(`/${name} cannot run: ${command.problem}`);
  return { kind: 'prompt', prompt: expandCommand(command.body, rest), command: name };
}
