/**
 * The built-in tools (SPEC §5), in the order they are offered to the model, and the secret set
 * of a session's workspaces.
 */
import { NO_SECRETS, type SecretRedactor, type Tool } from '../agent/types';
import { createBashTool, type BashToolOptions } from './bash';
import { editFileTool } from './edit-file';
import { readFileTool } from './read-file';
import { writeFileTool } from './write-file';

export interface BuiltinToolOptions {
  bash?: BashToolOptions;
}

export function builtinTools(options: BuiltinToolOptions = {}): Tool[] {
  return [readFileTool, writeFileTool, editFileTool, createBashTool(options.bash)];
}

export function workspaceSecrets(_roots: readonly string[]): SecretRedactor {
  return NO_SECRETS;
}
