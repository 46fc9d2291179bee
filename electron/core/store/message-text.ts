/**
 * The plain text of a stored message, for full-text search and for naming a session.
 * Only what the person and the model said in prose is indexed: tool inputs and results hold
 * whole files and command output, which would make nearly every session match any word.
 */
import type { StoredMessage } from './types';

const TITLE_LENGTH = 80;

export function messageText(message: StoredMessage): string {
  if (typeof message.content === 'string') return message.content;
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text') parts.push(block.text);
  }
  return parts.join('\n');
}

/** The first non-blank line, whitespace collapsed, cut to about 80 characters at a word. */
export function titleFromText(text: string): string {
  const line = text
    .split('\n')
    .map((candidate) => candidate.replace(/\s+/g, ' ').trim())
    .find((candidate) => candidate.length > 0);
  if (line === undefined) return '';
  // By code point, so an emoji is never cut in half.
  const characters = Array.from(line);
  if (characters.length <= TITLE_LENGTH) return line;
  const cut = characters.slice(0, TITLE_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return (space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut) + '…';
}
