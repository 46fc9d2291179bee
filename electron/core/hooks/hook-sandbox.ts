/**
 * Hooks in the bash OS sandbox (bubblewrap, Seatbelt), with bash's own policy: writes to the
 * session's roots, temp and configured paths; network as configured. A hook is a command like
 * any other the agent's session runs, and an approved project hook is still the project's code.
 * When the sandbox is on but none can run here, the hook does not run (bash asks a person
 * then; nobody is there to ask for a hook), and the transcript says why.
 */
import { probeSandbox, sandboxArgv, type AvailabilityOptions } from '../bash-sandbox';
import type { SessionRecord } from '../store';
import type { HookWrapper } from './hook-runner';

/** `availability` picks the platform and environment the check looks at (tests); the process's own by default. */
export function hookSandbox(coveHome: string, availability: AvailabilityOptions = {}): (session: SessionRecord) => HookWrapper {
  return (session) => async (launch, cwd) => {
    // The background check started with the engine; waiting for it keeps a hook from running a
    // second, synchronous one that would stop every session while bwrap starts.
    await probeSandbox(availability);
    let wrapped: ReturnType<typeof sandboxArgv>;
    try {
      wrapped = sandboxArgv([launch.file, ...launch.args], { ...availability, workspaceRoots: session.workspaces, cwd, coveHome });
    } catch (error) {
      return { refused: `the bash sandbox could not be set up (${(error as Error).message})` };
    }
    if (wrapped.state === 'unavailable') {
      return { refused: `the bash sandbox is on but cannot run here (${wrapped.reason}); "sandbox": {"enabled": false} in settings runs hooks and bash without it` };
    }
    return { file: wrapped.file, args: wrapped.args, release: wrapped.release };
  };
}
