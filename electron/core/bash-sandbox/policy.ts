/**
 * What a sandboxed bash command may do (SPEC §7): read everywhere, write only to the workspace
 * roots, the system temp folder and configured paths, never to the protected files of SPEC §6,
 * and reach the network only when settings say so. The policy is plain data so the bubblewrap
 * arguments and the Seatbelt profile are both derived from it, and tests read it directly.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PROTECTED_IN_ROOT, SHELL_STARTUP_FILES, SHELL_STARTUP_FOLDERS } from '../permissions/protected-files';
import type { SandboxNetwork, SandboxSettings } from './settings';

export { SHELL_STARTUP_FILES };

/** Which of them are folders: a missing folder is held by an empty read-only folder, a file by an empty file. */
export const PROTECTED_FOLDERS = new Set(['.cove', '.claude', '.git/hooks']);
/**
 * Sockets that would let a command act outside the sandbox through a program that is not in it:
 * a container engine (`docker run -v /:/host`), systemd and D-Bus (`systemd-run --user`), the
 * desktop session (X11 and Wayland input). Reads of them stay harmless; connecting is what is
 * blocked, so they are covered, whatever the network setting. `{uid}` is the user's id.
 */
export const HIDDEN_SOCKETS = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd',
  '/run/podman',
  '/run/dbus/system_bus_socket',
  '/run/systemd/private',
  '/run/user/{uid}',
  '/tmp/.X11-unix',
] as const;

export interface ProtectedPath {
  path: string;
  folder: boolean;
}

export interface SandboxPolicy {
  /** Real absolute paths where writes are allowed: the roots first, then temp, then configured ones. */
  writable: string[];
  /** Configured writable paths that do not exist, so nothing was opened for them. */
  missingWritable: string[];
  /** Absolute paths inside `writable` that stay read-only, whether they exist or not. */
  protectedPaths: ProtectedPath[];
  network: SandboxNetwork;
  /** Whether the network namespace is shared with the host. */
  networkOpen: boolean;
  /** Existing HIDDEN_SOCKETS (folders or sockets) that no writable path lies in. */
  hiddenSockets: Array<{ path: string; folder: boolean }>;
  cwd: string;
}

export interface PolicyInput {
  workspaceRoots: readonly string[];
  cwd: string;
  settings: SandboxSettings;
  temp?: string;
  home?: string;
}

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

export function isInside(path: string, folder: string): boolean {
  const between = relative(folder, path);
  return between === '' || (!between.startsWith(`..${sep}`) && between !== '..' && !isAbsolute(between));
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export function buildPolicy(input: PolicyInput): SandboxPolicy {
  const writable: string[] = [];
  const missingWritable: string[] = [];
  const add = (path: string) => {
    const resolved = real(path);
    if (resolved === undefined) missingWritable.push(path);
    else if (!writable.includes(resolved)) writable.push(resolved);
  };
  input.workspaceRoots.forEach(add);
  // Tools write to /tmp whatever TMPDIR says (and on macOS TMPDIR is a per-user folder).
  (input.temp ? [input.temp] : [tmpdir(), '/tmp']).forEach(add);
  input.settings.writable.forEach(add);
  const repositories = input.workspaceRoots.flatMap((root) => linkedGitFolders(real(root) ?? root));
  repositories.forEach((repository) => repository.folders.forEach(add));

  const home = real(input.home ?? homedir()) ?? resolve(input.home ?? homedir());
  const candidates: ProtectedPath[] = [];
  for (const root of input.workspaceRoots) {
    const base = real(root) ?? root;
    for (const name of PROTECTED_IN_ROOT) candidates.push({ path: join(base, name), folder: PROTECTED_FOLDERS.has(name) });
  }
  for (const repository of repositories) candidates.push(...repository.protectedPaths);
  // fish runs every conf.d/*.fish and autoloads functions/: its whole folder is held, as the permission check holds it.
  for (const name of SHELL_STARTUP_FOLDERS) candidates.push({ path: join(home, name), folder: true });
  for (const name of SHELL_STARTUP_FILES) candidates.push({ path: join(home, name), folder: false });
  // Only what a write could reach needs holding; outside `writable` the whole tree is read-only.
  const protectedPaths = candidates.filter(
    (candidate, index) => writable.some((folder) => isInside(candidate.path, folder)) && candidates.findIndex((other) => other.path === candidate.path) === index,
  );

  const networkOpen = input.settings.network === 'all';
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : '';
  const hiddenSockets = HIDDEN_SOCKETS.map((path) => path.replace('{uid}', uid)).flatMap((path) => {
    if (writable.some((folder) => isInside(folder, path))) return [];
    try {
      // Seatbelt matches the resolved path (macOS's /var/run is /private/var/run).
      return [{ path: realpathSync.native(path), folder: statSync(path).isDirectory() }];
    } catch {
      return [];
    }
  });
  return { writable, missingWritable, protectedPaths, network: input.settings.network, networkOpen, hiddenSockets, cwd: input.cwd };
}

/**
 * A root that is a git worktree or submodule has a `.git` file pointing at its git folder
 * elsewhere (`gitdir: …`, and for a worktree, `commondir` inside it naming the shared one).
 * Commits write there, so those folders are writable, and their config and hooks held like a
 * root's own `.git/config` and `.git/hooks`.
 */
function linkedGitFolders(root: string): Array<{ folders: string[]; protectedPaths: ProtectedPath[] }> {
  const linked = linkedGitFolder(root);
  if (!linked) return [];
  const { gitFolder, common } = linked;
  const folders = common === gitFolder ? [gitFolder] : [gitFolder, common];
  const protectedPaths: ProtectedPath[] = [
    { path: join(common, 'config'), folder: false },
    { path: join(common, 'hooks'), folder: true },
    { path: join(gitFolder, 'config.worktree'), folder: false },
  ];
  return [{ folders, protectedPaths }];
}

/** Where a `.git` file points: the git folder and the common one (the same for a submodule). */
export function linkedGitFolder(root: string): { gitFolder: string; common: string } | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, '.git'), 'utf8');
  } catch {
    return undefined;
  }
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  const gitFolder = pointer ? real(resolve(root, pointer)) : undefined;
  if (!gitFolder) return undefined;
  try {
    return { gitFolder, common: real(resolve(gitFolder, readFileSync(join(gitFolder, 'commondir'), 'utf8').trim())) ?? gitFolder };
  } catch {
    // A submodule's git folder is its own common folder.
    return { gitFolder, common: gitFolder };
  }
}

/** Whether `path` (absolute) may be written under the policy. */
export function writeAllowed(policy: SandboxPolicy, path: string): boolean {
  const resolved = resolve(path);
  if (policy.protectedPaths.some((entry) => isInside(resolved, entry.path))) return false;
  return policy.writable.some((folder) => isInside(resolved, folder));
}

export { exists as pathExists };
