/**
 * Stopping a command for good on Windows, where there are no process groups to signal:
 * node-pty's kill() ends only the shell, and whatever it started (a dev server, a test runner's
 * workers) would live on under ConPTY. `taskkill /T` walks the tree of child processes from the
 * shell's pid; `/F` because console programs cannot be asked to close, only ended.
 */
import { execFile } from 'node:child_process';
import { win32 } from 'node:path';

export type RunProgram = (file: string, args: readonly string[]) => Promise<{ code: number; output: string }>;

const runProgram: RunProgram = (file, args) =>
  new Promise((resolve) => {
    execFile(file, [...args], { windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}${error && typeof error.code !== 'number' ? error.message : ''}` });
    });
  });

/** taskkill's full path, so a taskkill.exe in the workspace (the working directory) is never the one run. */
export function taskkillPath(env: Readonly<Record<string, string | undefined>>): string {
  return win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows', 'System32', 'taskkill.exe');
}

/**
 * Ends the process tree rooted at `pid`, then settles once `exited` has, or shortly after.
 * Answers why it failed, when it did (128: the tree had already ended, which is no failure).
 */
export async function stopTree(
  pid: number,
  exited: Promise<unknown>,
  options: { run?: RunProgram; env?: Readonly<Record<string, string | undefined>>; settleMs?: number } = {},
): Promise<string | undefined> {
  const run = options.run ?? runProgram;
  const result = await run(taskkillPath(options.env ?? process.env), ['/T', '/F', '/PID', String(pid)]);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2_000))]);
  if (result.code === 0 || result.code === 128) return undefined;
  return `taskkill /T /F /PID ${pid} failed (${result.code}): ${result.output.trim()}`;
}
