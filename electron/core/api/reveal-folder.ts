/**
 * "Reveal in Finder / Explorer / Files" for a session's workspace folders. The page names the
 * folder, so main checks it is one of that session's roots (by real path, as they were
 * recorded) before asking the OS: the request must not become a way to open the file manager
 * on any path, or to launch a file (the OS would run an executable it is asked to open).
 */
import { realpathSync } from 'node:fs';
import { ApiError } from './dispatch';

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** The workspace's real path, when `path` is one of `workspaces`; throws naming what was wrong. */
export function workspaceToReveal(workspaces: readonly string[], path: string): string {
  const target = real(path);
  if (target === undefined) throw ApiError.notFound(`${path} does not exist (any more)`);
  if (!workspaces.some((root) => (real(root) ?? root) === target)) {
    throw ApiError.invalid(`${path} is not a workspace folder of this session; only those can be revealed`);
  }
  return target;
}
