/**
 * Turns whatever a person typed into a safe FTS5 MATCH expression. Each whitespace-separated
 * word becomes a quoted phrase with a prefix star, so FTS5 operators (AND, OR, NOT, NEAR,
 * parentheses, column filters, quotes) are matched as text and can never be a syntax error.
 * Words are ANDed; a word that is all punctuation has nothing to index and is dropped.
 */
const INDEXABLE = /[\p{L}\p{N}]/u;
// Control characters (NUL included) are not part of any token and confuse the C string API.
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function toMatchQuery(text: string): string | null {
  const terms = text
    .replace(CONTROL, ' ')
    .split(/\s+/)
    .filter((word) => INDEXABLE.test(word))
    .map((word) => `"${word.replaceAll('"', '""')}"*`);
  return terms.length > 0 ? terms.join(' ') : null;
}
