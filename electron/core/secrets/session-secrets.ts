/**
 * One secret set per session, shared by its runs, its hooks, its permission audit and its
 * events, and closed (its watchers with it) when the session is deleted, its workspaces change
 * or the host shuts down. Built per run before, every run left a set of watchers behind.
 */
import { NO_SECRETS, type SecretRedactor } from '../agent/types';
import { SecretSet } from './secret-set';

export interface SecretSession {
  id: string;
  workspaces: readonly string[];
}

/** A redactor that can stop watching; SecretSet is one. */
interface Closable {
  close?(): void;
}

interface Entry {
  /** The workspaces the set was scanned for: another list needs another scan. */
  roots: string;
  set: Promise<SecretRedactor>;
  ready?: SecretRedactor;
  closed: boolean;
}

/** Until a session's scan is done, its events are redacted with the built-in patterns alone. */
let builtIn: SecretSet | undefined;
function builtInSecrets(): SecretSet {
  return (builtIn ??= new SecretSet());
}

function closeRedactor(redactor: SecretRedactor | undefined): void {
  (redactor as (SecretRedactor & Closable) | undefined)?.close?.();
}

export class SessionSecrets {
  private readonly entries = new Map<string, Entry>();

  /** `create` is the host's scan (absent: the host redacts nothing, and neither does this). */
  constructor(private readonly create: ((session: SecretSession) => SecretRedactor | Promise<SecretRedactor>) | undefined) {}

  /** The session's set, scanned on first use and after its workspaces change. */
  of(session: SecretSession): SecretRedactor | Promise<SecretRedactor> {
    if (!this.create) return NO_SECRETS;
    const roots = JSON.stringify(session.workspaces);
    const known = this.entries.get(session.id);
    if (known && known.roots === roots) return known.ready ?? known.set;
    if (known) this.close(session.id);
    const create = this.create;
    // A scan that throws at once rejects like one that fails later.
    const entry: Entry = { roots, set: Promise.resolve().then(() => create(session)), closed: false };
    entry.set = entry.set.then(
      (set) => {
        // Closed while it was scanning: nobody will close it later.
        if (entry.closed) closeRedactor(set);
        else entry.ready = set;
        return set;
      },
      (error: unknown) => {
        // The run ends naming why (a malformed secrets setting); the next one scans again.
        if (this.entries.get(session.id) === entry) this.entries.delete(session.id);
        throw error;
      },
    );
    this.entries.set(session.id, entry);
    return entry.set;
  }

  /** What redacts the session's text now: its set once scanned, the built-in patterns before. */
  current(sessionId: string): SecretRedactor {
    if (!this.create) return NO_SECRETS;
    return this.entries.get(sessionId)?.ready ?? builtInSecrets();
  }

  /** A redactor that always uses the session's current set, for parts built before the scan ends. */
  redactorOf(sessionId: string): SecretRedactor {
    return {
      redact: (text) => this.current(sessionId).redact(text),
      redactLines: (text) => {
        const current = this.current(sessionId);
        return current.redactLines ? current.redactLines(text) : current.redact(text);
      },
    };
  }

  close(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    entry.closed = true;
    closeRedactor(entry.ready);
  }

  closeAll(): void {
    for (const sessionId of [...this.entries.keys()]) this.close(sessionId);
  }
}
