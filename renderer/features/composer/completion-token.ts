/**
 * The word being completed in the composer: `/name` at the very start of the message (a slash
 * command), or `@path` at the start of a word (a file mention). Pure, so it is tested apart from
 * the DOM.
 */

export interface CompletionToken {
  kind: 'command' | 'mention';
  /** What follows the `/` or `@`. */
  query: string;
  start: number;
  end: number;
}

export function tokenAt(text: string, caret: number): CompletionToken | null {
  let start = caret;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  const word = text.slice(start, caret);
  // The rest of the word after the caret is replaced too, so accepting never leaves half a name.
  let end = caret;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  if (word.startsWith('/') && start === 0 && !word.slice(1).includes('/')) return { kind: 'command', query: word.slice(1), start, end };
  if (word.startsWith('@') && !word.startsWith('@"')) return { kind: 'mention', query: word.slice(1), start, end };
  return null;
}

/** The text with the token replaced by the choice, and where the caret goes. */
export function applyCompletion(text: string, token: CompletionToken, choice: string): { text: string; caret: number } {
  const sigil = token.kind === 'command' ? '/' : '@';
  const quoted = token.kind === 'mention' && /\s/.test(choice) ? `"${choice}"` : choice;
  // A folder keeps the caret inside the mention, so the next keystroke lists what it holds.
  const spacer = token.kind === 'mention' && choice.endsWith('/') ? '' : ' ';
  const inserted = `${sigil}${quoted}${spacer}`;
  const after = spacer ? text.slice(token.end).replace(/^ /, '') : text.slice(token.end);
  return { text: text.slice(0, token.start) + inserted + after, caret: token.start + inserted.length };
}
