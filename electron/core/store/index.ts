/** The session store (SPEC §8): SQLite under the data directory. */
export { openStore, defaultDataDir, DATABASE_FILE } from './store';
export type { StoreOptions } from './store';
export { SNIPPET_OPEN, SNIPPET_CLOSE } from './search';
export { isProcessAlive } from './recovery';
export { newSessionId } from './ids';
export { SESSION_STATUSES, StoreError } from './types';
export type {
  ListOptions,
  NewSession,
  PermissionAuditEntry,
  PermissionAuditRecord,
  RecoveryReport,
  SearchHit,
  SessionCursor,
  SessionPatch,
  SessionRecord,
  SessionStatus,
  Store,
  StoreErrorCode,
  StoredEvent,
  StoredMessage,
  ToolCallRecord,
  ToolCallStatus,
} from './types';
