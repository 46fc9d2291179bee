/**
 * Rust `regex` syntax (noseyparker's and Kingfisher's rules) brought to the RE2 syntax that
 * re2-to-js.ts translates. The two agree on what these rules use except verbose mode, `(?x)`,
 * whose blanks and `#` comments are not part of the pattern; JavaScript has no such mode.
 */

/** A `(?x)` pattern's body with its blanks and comments dropped, keeping classes and escapes. */
export function unverbose(source: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (char === '\\') {
      // An escaped blank (`\ `) is a literal blank in verbose mode.
      out += source.slice(index, index + 2);
      index++;
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
      if (source[index + 1] === '^') out += source[++index];
      if (source[index + 1] === ']') out += source[++index];
    } else if (source.startsWith('(?#', index)) {
      index = source.indexOf(')', index);
    } else if (char === '#') {
      const end = source.indexOf('\n', index);
      index = end === -1 ? source.length : end;
    } else if (!/\s/.test(char)) out += char;
  }
  return out;
}

/**
 * A Rust pattern as RE2 source: its leading flags (written together, `(?xi)`, or one after
 * another, `(?x)(?i)`) kept but for `x`, and the body unverbosed when `x` was among them.
 */
export function rustToRe2(pattern: string): string {
  const source = pattern.trim();
  const leading = /^(?:\(\?[a-z]+\)\s*)*/.exec(source)![0];
  const flags = [...new Set(leading.replace(/[^a-z]/g, ''))];
  if (!flags.includes('x')) return source;
  const kept = flags.filter((flag) => flag !== 'x').join('');
  return (kept ? `(?${kept})` : '') + unverbose(source.slice(leading.length));
}
