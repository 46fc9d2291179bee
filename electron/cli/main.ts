/**
 * The `cove` command: `cove run`, `cove serve`, `cove sessions`.
 * Every failure a person can fix is one line on stderr and a non-zero exit.
 */
import { SetupError } from '../core/errors';
import { StoreError } from '../core/store/types';
import { parseApproveArgs, parseRewindArgs, parseRunArgs, parseServeArgs, parseSessionsArgs, UsageError } from './args';
import { EXIT } from './exit-codes';

// Each command is loaded when it is used, so `cove sessions` does not pay for the agent, MCP or
// the web server at start-up, and `cove run` starts as fast as the bare SDK would.
const HELP = `Cove: a coding agent for your projects.

usage:
  cove run  [--workspace DIR]... [--model ID] [--permission-mode default|acceptEdits|plan|bypass]
            [--allow RULE]... [--ask RULE]... [--deny RULE]... [--max-turns N] [--json]
            [--resume ID | --continue] [--image FILE]... [--worktree] PROMPT
            PROMPT may start with /command args and mention files as @path;
            --worktree: the new session works in a git worktree of its own
  cove serve [--port N] [--host H] [--token T]
            the app in a browser: prints the URL to open (with its token); port 4455
            by default (any free port when it is taken, --port 0 always); host 127.0.0.1
  cove sessions [--search TEXT | --audit ID] [--limit N | --all] [--json]
            the most recent 200 sessions unless --limit N or --all says otherwise
  cove sessions --changes ID [--json]
            what each prompt of a session changed, file by file, with diffs
  cove sessions --merge ID | --discard ID
            a worktree session's branch merged into the branch it started from, or thrown away
  cove rewind ID [--to N] [--dry-run] [--force] [--conversation]
            put the workspace back as it was before prompt N (default: the latest that
            changed files); --force overwrites files changed by hand since;
            --conversation cuts the conversation back to before prompt N too
  cove rewind ID --undo-revert N [--dry-run]
            undo the review pane's revert #N (as cove sessions --changes lists it):
            the agent's change goes back, unless the files changed since
  cove approve [--workspace DIR]... [--list] [--json]
            approve the hooks and MCP servers a project brings (each pinned to its content)

environment:
  ANTHROPIC_API_KEY    your API key (or ANTHROPIC_AUTH_TOKEN)
  ANTHROPIC_BASE_URL   another endpoint for the Messages API
  COVE_HOME            where sessions are kept (default ~/.cove)
`;

async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run': {
      const hasPrompt = rest.some((arg) => !arg.startsWith('-'));
      const args = parseRunArgs(rest, hasPrompt ? undefined : await readStdin());
      return (await import('./run-command')).runCommand(args);
    }
    case 'serve': {
      const args = parseServeArgs(rest);
      return (await import('./serve-command')).serveCommand(args);
    }
    case 'sessions': {
      const args = parseSessionsArgs(rest);
      if (args.changes !== undefined) return (await import('./changes-command')).changesCommand(args.changes, args.json);
      if (args.merge !== undefined || args.discard !== undefined) return (await import('./worktree-command')).worktreeCommand(args);
      return (await import('./sessions-command')).sessionsCommand(args);
    }
    case 'rewind': {
      const args = parseRewindArgs(rest);
      if (args.undoRevert !== undefined) return (await import('./undo-revert-command')).undoRevertCommand({ sessionId: args.sessionId, seq: args.undoRevert, dryRun: args.dryRun });
      return (await import('./rewind-command')).rewindCommand(args);
    }
    case 'approve': {
      const args = parseApproveArgs(rest);
      return (await import('./approve-command')).approveCommand(args);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      throw new UsageError(`cove: unknown command '${command}' (try cove help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof SetupError;
    const known = usage || error instanceof StoreError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message.startsWith('cove') ? '' : 'cove: '}${message.split('\n')[0]}\n`);
    if (!known && error instanceof Error && error.stack && process.env.COVE_DEBUG) process.stderr.write(`${error.stack}\n`);
    process.exitCode = usage ? EXIT.usage : EXIT.failed;
  },
);
