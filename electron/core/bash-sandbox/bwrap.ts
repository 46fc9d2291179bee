/**
 * The Linux sandbox: bubblewrap, driven directly. `@anthropic-ai/sandbox-runtime` (Apache-2.0)
 * was the first choice, but it declares Node >= 22.12 (Cove supports Node 20.18, as the CLI and
 * the tests run here), spawns commands through child_process where Cove's bash needs node-pty,
 * and needs socat for its network bridge; the few bwrap arguments below are what it would build.
 *
 * Why these options:
 * - `--ro-bind / /` then `--bind` for each writable path: reads stay broad, writes are opt-in.
 *   Protected paths come last, bound read-only onto themselves, so they win inside the roots.
 * - `--dev /dev`: a fresh minimal /dev (null, zero, tty, urandom, its own pts), no disks.
 * - `--unshare-pid` with `--die-with-parent`: when bash is stopped, the namespace's first process
 *   dies and the kernel kills everything left in it, daemons included.
 * - No `--new-session`: node-pty made bash's session and its controlling terminal, which the end
 *   marker's acknowledgement reads through /dev/tty; a new session would lose it. The terminal
 *   is Cove's own PTY, so input pushed into it (TIOCSTI) only reaches the sandboxed command.
 * - `--cap-drop ALL`: run as root, bwrap would otherwise keep CAP_SYS_ADMIN, and
 *   `mount -o remount,rw /` would undo every read-only bind.
 * - HIDDEN_SOCKETS covered (an empty folder, or /dev/null on a socket): connecting to Docker or
 *   systemd would run things outside the sandbox.
 * - `--unshare-net` unless the network is open: only loopback inside, so every connection out,
 *   and to the host's 127.0.0.1, is refused.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Holds } from './holds';
import type { SandboxPolicy } from './policy';

/** `COVE_BWRAP` names the binary (a path) where it is not on PATH; otherwise PATH is searched. */
export function findBwrap(environment: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const configured = environment.COVE_BWRAP;
  const candidates = configured
    ? [configured]
    : (environment.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, 'bwrap'));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** bwrap's options for the policy, up to (not including) the command, with the holds of the protected paths. */
export function bwrapArguments(policy: SandboxPolicy, holds: Pick<Holds, 'anchors' | 'paths' | 'covers'>): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL'];
  if (!policy.networkOpen) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  // Parents first: a later bind of a parent (the temp folder) would cover a root inside it.
  const parentsFirst = [...policy.writable].sort((first, second) => first.split('/').length - second.split('/').length);
  for (const path of parentsFirst) args.push('--bind', path, path);
  for (const path of holds.anchors) args.push('--bind', path, path);
  for (const path of holds.paths) args.push('--ro-bind', path, path);
  for (const cover of holds.covers) args.push('--ro-bind', cover.source, cover.target);
  for (const hidden of policy.hiddenSockets) {
    if (hidden.folder) args.push('--tmpfs', hidden.path, '--remount-ro', hidden.path);
    else args.push('--ro-bind', '/dev/null', hidden.path);
  }
  args.push('--chdir', policy.cwd, '--');
  return args;
}

/** The options of a trial run: the same namespaces a command gets. */
export const BWRAP_PROBE = [
  '--die-with-parent',
  '--unshare-pid',
  '--unshare-ipc',
  '--cap-drop',
  'ALL',
  '--unshare-net',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--',
  '/bin/sh',
  '-c',
  'exit 0',
];
