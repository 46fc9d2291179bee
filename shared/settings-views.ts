/** What Settings shows and edits, as the contract's requests answer it (see contract.ts). */
export interface PermissionRules {
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface RuleSource {
  /** The settings file, as an absolute path. */
  path: string;
  kind: 'user' | 'project' | 'local' | 'claude';
  rules: PermissionRules;
  /** The person's own, the project's and the local file can be edited from Settings; Claude Code's cannot. */
  editable: boolean;
}

/** How a host stores the API key: encrypted by the OS keychain, or in a file only its owner can read. */
export interface ApiKeyStorageView {
  kind: 'keychain' | 'file';
  /** The file, for `file`, or the one a consented key would go to when the keychain cannot be used. */
  file?: string;
  /** Why the keychain cannot be used (no keyring on this Linux); the key can then be stored only with `unprotectedFile`. */
  keychainProblem?: string;
}

export interface SettingsView {
  model: string;
  permissionMode: string;
  /** Where the API key comes from; the key itself never leaves main. */
  apiKey: 'stored' | 'environment' | 'missing';
  /** How a stored key is kept; absent for hosts that do not say. */
  apiKeyStorage?: ApiKeyStorageView;
  /** Rules of the given workspace's settings files, when one was named. */
  ruleSources: RuleSource[];
  /** Problems with settings files, each naming the file. */
  problems: string[];
}

export type RuleCheckView = { valid: true; rule: string } | { valid: false; message: string };

/** `rejected`: the API refused the key (401/403); `unchecked`: it could not say (unreachable, no Models API). */
export interface ApiKeyCheckView {
  verdict: 'valid' | 'rejected' | 'unchecked';
  message: string;
}

/** A model Settings offers, with what Cove knows of it. */
export interface ModelChoice {
  id: string;
  displayName: string;
  contextWindow: number;
  maxOutput: number;
  /** False when the price table has no row for it: its cost shows as unknown. */
  priced: boolean;
}

export interface ModelListView {
  models: ModelChoice[];
  /** `api`: what the key can use, from the Models API (or its cached answer); `builtin`: the price table's current models. */
  source: 'api' | 'builtin';
}

export interface McpServerView {
  name: string;
  transport: 'stdio' | 'http';
  state: 'starting' | 'connected' | 'restarting' | 'failed';
  error?: string;
  toolCount: number;
  /** The end of the server's stderr, bounded. */
  stderrTail: string;
  /** Tools left out because the API would reject their schema, each with why. */
  warnings?: string[];
}

export interface McpStatusView {
  workspace: string;
  servers: McpServerView[];
  /** Configuration files that could not be used at all. */
  problems: string[];
}

/** A hook or MCP server a project brings (SPEC §14): it runs only once approved, for this content. */
export interface ProjectApprovalItem {
  /** The content hash the approval is pinned to. */
  id: string;
  kind: 'hook' | 'mcpServer';
  /** The file that declares it. */
  file: string;
  /** `PreToolUse Bash` for a hook, the server's name for a server. */
  name: string;
  /** What would run. */
  command: string;
  approved: boolean;
}

export interface ProjectApprovalsView {
  workspace: string;
  items: ProjectApprovalItem[];
  /** Files that could not be read, each naming the file. */
  problems: string[];
}
