/**
 * One command in a PTY. Two things make a PTY awkward for batch commands, handled here:
 * - Agents run unattended: stdin comes from /dev/null so nothing waits for typing and tools
 *   that switch to watch mode on a terminal stdin (test runners) run once.
 * - When a fast writer's session ends, Linux can report EIO on the master before it has handed
 *   over the last few kilobytes, and node-pty then drops them (the end of the output, the part
 *   that says what failed). So bash never ends on its own: its EXIT trap prints an end marker
 *   and waits for our acknowledgement on the terminal. Output before the marker is complete.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';
import { stopGroup } from './bash-kill';
import { assertPtyHelper } from './pty-helper';
import { currentShell, essentialEnvironment, type Shell } from './shell-choice';
import { stopTree } from './windows-kill';

export interface PtyExit {
  exitCode: number;
  /** The signal that ended bash, or undefined. */
  signal: number | undefined;
  /** Whether bash printed its end marker: false when it never started (a sandbox that failed) or was killed. */
  completed: boolean;
}

export interface RunningCommand {
  pid: number;
  /** One listener; it receives the command's output, without our end marker. */
  onData(listener: (chunk: string) => void): void;
  /** Settles when bash has exited and all its output has been delivered. */
  exited: Promise<PtyExit>;
  /** Stops the whole process group (see stopGroup); settles when it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** A program that runs bash for us (the OS sandbox): `file args… /bin/bash -c …`. */
  launcher?: { file: string; args: readonly string[] };
  /** A Windows shell (shell-choice.ts); this machine's when not given, none off Windows. */
  windowsShell?: Shell;
}

/**
 * How long a Windows shell's output may trail its exit (no acknowledgement there; see
 * shell-choice.ts). ConPTY re-renders what programs write and may drop an OSC sequence it does
 * not know, so the marker only ends the wait early; this bound ends it otherwise.
 */
const WINDOWS_DRAIN_MS = 1_000;

/** How long bash waits for the acknowledgement before ending anyway. */
const ACK_TIMEOUT_SECONDS = 10;

/**
 * Everything before the command sits on its first line (joined with `;`) so that bash's
 * "line N" in syntax errors still matches the command the model wrote.
 */
let nodePty: typeof NodePty | undefined;

/** node-pty, a native module, loads with the first command: a run that runs none does not wait 30 ms for it at start-up. */
function ptyModule(): typeof NodePty {
  nodePty ??= createRequire(import.meta.url)('node-pty') as typeof NodePty;
  return nodePty;
}

function wrap(command: string, nonce: string): string {
  const onExit = `__cove_status=$?; printf "\\033]6973;${nonce}\\007"; ` + `read -r -t ${ACK_TIMEOUT_SECONDS} __cove_ack </dev/tty; exit "$__cove_status"`;
  return `exec </dev/null; trap '${onExit}' EXIT; ${command}`;
}

export function spawnCommand(options: SpawnOptions): RunningCommand {
  const nonce = randomBytes(8).toString('hex');
  const marker = `\x1b]6973;${nonce}\x07`;
  // Windows: another shell, no acknowledgement, a tree kill (shell-choice.ts). Elsewhere bash,
  // inside the OS sandbox's launcher when there is one.
  assertPtyHelper();
  const windows = options.windowsShell ?? currentShell().shell;
  const bash = ['/bin/bash', '-c', wrap(options.command, nonce)];
  const unix = options.launcher ? [options.launcher.file, ...options.launcher.args, ...bash] : bash;
  const [file, ...args] = windows ? [windows.file, ...windows.args(windows.wrap(options.command, nonce))] : unix;
  const child = ptyModule().spawn(file!, args, {
    name: 'xterm-256color',
    cols: 120,
    rows: 30,
    cwd: options.cwd,
    env: windows ? { ...essentialEnvironment(process.env), ...options.env } : options.env,
  });
  let markerSeen: () => void = () => {};

  let listener: (chunk: string) => void = () => {};
  /** The start of a marker cut off by a chunk boundary. */
  let held = '';
  let ended = false;
  let gone = false;
  child.onData((data) => {
    if (ended) return;
    let text = held + data;
    held = '';
    const at = text.indexOf(marker);
    if (at >= 0) {
      ended = true;
      if (at > 0) listener(text.slice(0, at));
      // A sandbox's outer process can be gone (stopped) while bash still prints its marker.
      if (!windows && !gone) child.write('\r');
      markerSeen();
      return;
    }
    const escape = text.lastIndexOf('\x1b');
    if (escape >= 0 && text.length - escape < marker.length && marker.startsWith(text.slice(escape))) {
      held = text.slice(escape);
      text = text.slice(0, escape);
    }
    if (text !== '') listener(text);
  });
  const exited = new Promise<PtyExit>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      gone = true;
      const finish = () => {
        if (held !== '') listener(held);
        held = '';
        resolve({ exitCode, signal: signal ? signal : undefined, completed: ended });
      };
      if (!windows || ended) return finish();
      const drained = setTimeout(finish, WINDOWS_DRAIN_MS);
      markerSeen = () => {
        clearTimeout(drained);
        finish();
      };
    });
  });
  return {
    pid: child.pid,
    onData: (next) => {
      listener = next;
    },
    exited,
    stop: (graceMs = 2_000) => (windows ? stopTree(child.pid, exited).then(() => undefined) : stopGroup(child.pid, exited, graceMs)),
  };
}
