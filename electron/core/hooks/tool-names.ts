/**
 * Hook matchers are regular expressions over tool names. People bring matchers written for
 * Claude Code (`Bash`, `Edit|Write`), so each Cove tool also answers to the Claude names of the
 * tools it stands for. A matcher must match the whole name, as Claude Code's plain names do:
 * `Edit` must not catch `NotebookEdit`.
 */
const CLAUDE_NAMES: Record<string, readonly string[]> = {
  bash: ['Bash'],
  edit_file: ['Edit', 'MultiEdit'],
  hashline_edit: ['Edit', 'MultiEdit'],
  write_file: ['Write'],
  read_file: ['Read'],
  list_files: ['Glob', 'LS'],
  search: ['Grep'],
  web_fetch: ['WebFetch'],
  todo_write: ['TodoWrite'],
  subagent: ['Task'],
};

/** The names a matcher may use for a Cove tool: its own and Claude Code's. */
export function namesOf(toolName: string): readonly string[] {
  return [toolName, ...(CLAUDE_NAMES[toolName] ?? [])];
}

export type ToolMatcher = (subject: string) => boolean;

/** An empty matcher or `*` matches everything; anything else is an anchored regular expression. */
export function compileMatcher(matcher: string): ToolMatcher {
  const text = matcher.trim();
  if (text === '' || text === '*') return () => true;
  const pattern = new RegExp(`^(?:${text})$`);
  return (subject) => namesOf(subject).some((name) => pattern.test(name));
}
