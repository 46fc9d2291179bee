/**
 * The paths a call touches, asked of the tool itself (its declaration's `permission.paths`) and
 * located the way the sandbox will resolve them. A symlink inside the workspace that points out
 * is outside.
 */
import { isAbsolute, normalize, relative, sep } from 'node:path';
import type { Tool } from '../agent/types';
import { toolCommand, toolPaths } from '../tools/define-tool';
import { knownTool } from '../tools/registry';
import { isInside, realRoots } from '../tools/sandbox';
import { realPath } from './shell-paths';

export interface CallPath {
  /** As the model gave it. */
  given: string;
  /** Where it really leads (symlinks followed). */
  real: string;
  /** Resolved without following symlinks. */
  lexical: string;
  /** The real root holding it, or null when it is outside every root. */
  root: string | null;
  /** From that root, `/`-separated; `.` for the root itself. */
  relative: string | null;
}

/** What the permission engine asks of a tool. */
export type CalledTool = Pick<Tool, 'name' | 'label' | 'kind' | 'permission' | 'summary'>;

/** A call and the tool it names, so the tool can be asked what the call touches. */
export interface CallTool {
  args: unknown;
  tool: CalledTool | undefined;
}

/**
 * The tool a call names: the one the agent passed with it when it declares its permission facts,
 * else the declared tool of that name, so a bare tool named `bash` is still judged as bash.
 */
export function toolOfCall(call: { toolName: string; tool?: CalledTool }): CalledTool | undefined {
  if (call.tool?.permission !== undefined) return call.tool;
  return knownTool(call.toolName) ?? call.tool;
}

/** The paths the call names, or null for a tool that takes none. */
export function givenPaths(call: CallTool): string[] | null {
  return toolPaths(call.tool, call.args);
}

/** The command line the call runs, or null for a tool that runs none. */
export function givenCommand(call: CallTool): string | null {
  return toolCommand(call.tool, call.args);
}

export function locate(given: string, roots: readonly string[]): CallPath {
  const real = realRoots(roots);
  const absolute = isAbsolute(given) ? given : `${real[0] ?? '/'}/${given}`;
  const resolved = realPath(absolute) ?? normalize(absolute);
  const root = real.find((candidate) => isInside(resolved, candidate)) ?? null;
  return {
    given,
    real: resolved,
    lexical: normalize(absolute),
    root,
    relative: root === null ? null : relative(root, resolved).split(sep).join('/') || '.',
  };
}

/** Where each path a call names really leads; null for a tool that names none. */
export function callPaths(call: CallTool, roots: readonly string[]): CallPath[] | null {
  return givenPaths(call)?.map((given) => locate(given, roots)) ?? null;
}
