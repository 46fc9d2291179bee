/**
 * A workspace's `.claude/settings.json` permissions, so a person brings their Claude Code rules
 * along. Claude's tool names map onto Cove's; its specifier syntax (`Bash(npm run test:*)`,
 * `Read(./.env)`, `Edit(//abs/**)`) is the same. Claude applies Read rules to every tool that
 * reads files and Edit rules to every tool that edits them, so they map to all of Cove's. Rules
 * for tools Cove does not have (WebSearch, NotebookEdit…) are skipped with a warning;
 * Claude's defaultMode is not carried over, since bypassPermissions should be chosen in Cove.
 */

const CLAUDE_TOOLS: Record<string, string[]> = {
  Bash: ['bash'],
  Read: ['read_file', 'list_files', 'search'],
  Edit: ['edit_file', 'hashline_edit', 'write_file'],
  MultiEdit: ['edit_file', 'hashline_edit'],
  Write: ['write_file'],
  Glob: ['list_files'],
  Grep: ['search'],
  LS: ['list_files'],
  Task: ['subagent'],
  // Claude's WebFetch(domain:example.com) is Cove's web_fetch rule, specifier and all.
  WebFetch: ['web_fetch'],
  TodoWrite: ['todo_write'],
};

export interface MappedRule {
  /** Cove rules; empty when the rule was skipped. */
  rules: string[];
  /** Why it was skipped. */
  skipped: string | null;
}

export function mapClaudeRule(text: string): MappedRule {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  const tool = open < 0 ? trimmed : trimmed.slice(0, open);
  if (tool.startsWith('mcp__')) return { rules: [trimmed], skipped: null };
  const targets = CLAUDE_TOOLS[tool];
  if (!targets) return { rules: [], skipped: `Cove has no ${tool} tool` };
  const rest = open < 0 ? '' : trimmed.slice(open);
  return { rules: targets.map((target) => `${target}${rest}`), skipped: null };
}
