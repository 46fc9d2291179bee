/**
 * The built-in tools (SPEC §5), in the order they are offered to the model, and the secret set
 * of a session's workspaces. Importing this module declares every built-in tool, so `knownTool`
 * answers for each of them (and for any tool declared since, such as a test's).
 */
import type { SecretRedactor, Tool } from '../agent/types';
import { SecretSet } from '../secrets';
import { createBashTool, type BashToolOptions } from './bash';
import { editFileTool } from './edit-file';
import { hashlineEditTool } from './hashline-edit';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { searchTool } from './search';
import { writeFileTool } from './write-file';
import { todoWriteTool } from './todo-write';
import { createWebFetchTool, type WebFetchOptions } from '../web-fetch/web-fetch-tool';
import { declaredTool, declaredToolNames, type ToolFacts } from './define-tool';
// Declared per session, but their names and rules exist whether or not a session offers them.
import '../subagents/subagent-tool';
import '../project/skills';

export interface BuiltinToolOptions {
  bash?: BashToolOptions;
  /** Without it, web_fetch reaches public addresses only. */
  webFetch?: WebFetchOptions;
}

export function builtinTools(options: BuiltinToolOptions = {}): Tool[] {
  return [
    readFileTool,
    listFilesTool,
    searchTool,
    writeFileTool,
    editFileTool,
    hashlineEditTool,
    createBashTool(options.bash),
    createWebFetchTool(options.webFetch ?? { allowedHosts: () => [] }),
    todoWriteTool,
  ];
}

/** A declared tool by name: every built-in, and any tool declared with defineTool since. */
export function knownTool(name: string): ToolFacts | undefined {
  return declaredTool(name);
}

export function knownToolNames(): string[] {
  return declaredToolNames();
}

/**
 * Built-in patterns plus the values of the workspaces' secret files and secret-looking
 * environment variables. A scan that fails must not stop the run: the patterns still apply.
 */
export async function workspaceSecrets(roots: readonly string[], log: (message: string) => void = () => {}, extraGlobs: readonly string[] = []): Promise<SecretRedactor> {
  try {
    return await SecretSet.fromWorkspace(roots, {
      watch: true,
      // The settings' `secrets.files` globs (settings/app-settings.ts).
      extraGlobs,
      onUnreadable: (path) => log(`secret file ${path} could not be read; its values cannot be redacted`),
    });
  } catch (error) {
    log(`secret files could not be scanned, only the built-in patterns apply: ${(error as Error)?.message ?? String(error)}`);
    return new SecretSet();
  }
}
