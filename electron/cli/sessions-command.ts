/** `cove sessions`: lists stored sessions, newest first, or searches their messages. */
import { defaultDataDir, openStore, SNIPPET_CLOSE, SNIPPET_OPEN } from '../core/store';
import { UsageError, type SessionsArgs } from './args';
import { priceRow } from '../core/agent/pricing';

/** A session of a model without a published price has an unknown cost, not a zero one. */
const priced = (model: string) => priceRow(model) !== undefined;

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

export function sessionsCommand(args: SessionsArgs): number {
  const store = openStore(defaultDataDir());
  try {
    // Runs whose process died show as interrupted, not as running forever.
    store.recoverInterrupted();
    const lines: string[] = [];
    if (args.audit !== undefined) {
      if (!store.getSession(args.audit)) throw new UsageError(`cove sessions: --audit ${args.audit}: no such session`);
      for (const entry of store.listPermissions(args.audit)) {
        lines.push(
          args.json
            ? JSON.stringify(entry)
            : `${when(entry.at)}  ${entry.decision.padEnd(5)}  ${entry.decidedBy.padEnd(8)}  ${entry.toolName}  ${JSON.stringify(entry.args).slice(0, 100)}${entry.rule ? `  rule ${entry.rule}` : ''}${entry.scope ? `  (${entry.scope})` : ''}`,
        );
      }
    } else if (args.search !== undefined) {
      for (const hit of store.search(args.search, { limit: 50 })) {
        const snippet = hit.snippet
          .split(SNIPPET_OPEN)
          .join(args.json ? SNIPPET_OPEN : '')
          .split(SNIPPET_CLOSE)
          .join(args.json ? SNIPPET_CLOSE : '');
        lines.push(
          args.json
            ? JSON.stringify({ id: hit.sessionId, title: hit.title, workspaces: hit.workspaces, status: hit.status, updatedAt: hit.updatedAt, snippet: hit.snippet })
            : `${hit.sessionId}  ${when(hit.updatedAt)}  ${hit.status.padEnd(11)}  ${hit.title || '(untitled)'}\n    ${snippet.replace(/\s+/g, ' ')}`,
        );
      }
    } else {
      // One more than asked for says whether the list was cut; only then are the rest counted.
      const sessions = store.listSessions({ limit: args.limit === undefined ? -1 : args.limit + 1 });
      if (args.limit !== undefined && sessions.length > args.limit) {
        sessions.length = args.limit;
        const last = sessions.at(-1)!;
        const more = store.listSessions({ before: { updatedAt: last.updatedAt, id: last.id } }).length;
        process.stderr.write(`cove sessions: the ${args.limit} most recent of ${args.limit + more} sessions; --limit N lists more, --all lists every one\n`);
      }
      for (const session of sessions) {
        lines.push(
          args.json
            ? JSON.stringify({
                id: session.id,
                title: session.title,
                workspaces: session.workspaces,
                status: session.status,
                model: session.model,
                createdAt: session.createdAt,
                updatedAt: session.updatedAt,
                usage: session.usage,
                costUsd: priced(session.model) ? session.costUsd : null,
              })
            : `${session.id}  ${when(session.updatedAt)}  ${session.status.padEnd(11)}  ${priced(session.model) ? `$${session.costUsd.toFixed(4)}` : 'cost unknown'}  ${session.title || '(untitled)'}  [${session.workspaces.join(', ')}]`,
        );
      }
    }
    if (lines.length === 0 && !args.json) {
      process.stderr.write(args.audit !== undefined ? 'no permission decisions in this session\n' : args.search !== undefined ? 'no session matches\n' : 'no sessions yet\n');
    }
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    store.close();
  }
}
