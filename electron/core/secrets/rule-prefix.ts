/**
 * Where a gitleaks rule's secret begins with a provider's own prefix (`NRJS-`, `ghp_`, `dapi`),
 * the prefix already says "credential": such a secret is redacted whatever its entropy (a test
 * key, `NRJS-30aa0a2bbbbbbbbbbbb`, is still a key) and whatever name it is assigned to (a rule
 * that wants `new_relic` before the value misses `NR_BROWSER_TOKEN=NRJS-…`). This reads the
 * RE2 source far enough to find that prefix and the secret's own part of the pattern.
 */

/** The secret's part of a rule: the source of its secret group, and what must follow it. */
export interface SecretPart {
  /** Inline flags in force where the group opens (`(?i)` at the rule's start). */
  flags: string;
  group: string;
  /** The rule's text after the group (its terminator, `(?:[\x60'"\s;]|\\[nr]|$)`). */
  after: string;
}

/** The index after the group that opens at `source[at] === '('`. */
function groupEnd(source: string, at: number): number {
  let depth = 0;
  let inClass = false;
  for (let index = at; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') index++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') {
      inClass = true;
      if (source[index + 1] === ']' || source[index + 1] === '^') index++;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index + 1;
  }
  return -1;
}

/** The top-level alternatives of a group's body. */
function branches(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === '\\') index++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      out.push(body.slice(start, index));
      start = index + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** The secret group (`secretGroup`, or the first capturing group) of a rule's source. */
export function secretPart(source: string, secretGroup: number): SecretPart | undefined {
  let number = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '[') {
      const close = source.indexOf(']', index + 2);
      if (close === -1) return undefined;
      index = close;
      continue;
    }
    if (char !== '(') continue;
    const named = source.startsWith('(?P<', index);
    if (source[index + 1] === '?' && !named) continue;
    number++;
    if (secretGroup > 0 && number !== secretGroup) continue;
    const end = groupEnd(source, index);
    if (end === -1) return undefined;
    const open = named ? source.indexOf('>', index) + 1 : index + 1;
    const flags = /^\(\?i\)/.test(source) ? '(?i)' : '';
    return { flags, group: source.slice(open, end - 1), after: source.slice(end) };
  }
  return undefined;
}

/** Literal characters at the start of a branch (escapes of punctuation included), stopping at the first operator. */
function literalStart(branch: string): string {
  let text = branch;
  for (;;) {
    const stripped = text.replace(/^(?:\\b|\(\?i\)|\(\?:|\()/, '');
    if (stripped === text) break;
    text = stripped;
  }
  let literal = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (/[A-Za-z0-9_~-]/.test(char)) {
      literal += char;
      index++;
    } else if (char === '\\' && /[.\-_/~]/.test(text[index + 1] ?? '')) {
      literal += text[index + 1];
      index += 2;
    } else break;
  }
  // A quantifier after the last character makes it optional.
  if (/^[?*{]/.test(text.slice(index))) literal = literal.slice(0, -1);
  return literal;
}

/**
 * A prefix no ordinary word or hash starts with: three characters or more with punctuation or
 * a digit (`hf_`, `dop_v1_`, `sk-ant-`), or four with a capital (`LTAI`, `AIza`); not a lower-case
 * word (`live`, `http`, `dapi` keep their rule's floor) nor all hexadecimal (`4b1d` begins hashes).
 */
export function isDistinctive(prefix: string): boolean {
  if (/^[0-9a-f]+$/i.test(prefix)) return false;
  if (prefix.length >= 3 && /[_.~-]|\d/.test(prefix)) return true;
  return prefix.length >= 4 && /[A-Z]/.test(prefix);
}

/**
 * Word boundaries, a case flag and a negative lookbehind (Cove's `(?<![A-Za-z])`, a prefix that
 * may follow `_` or a digit) before a prefix change nothing about it.
 */
const LEADING_ANCHORS = /^(?:\\b|\(\?i\)|\(\?<![^()]*\))+/;

/** A branch's prefix: its literal start, or that of the alternatives of a group it opens with. */
function branchPrefix(branch: string): string {
  const text = branch.replace(LEADING_ANCHORS, '');
  if (/^\((?:\?:)?(?!\?)/.test(text)) {
    const end = groupEnd(text, 0);
    if (end > 0 && end < text.length && !/^[?*{]/.test(text.slice(end))) return distinctivePrefix(text.slice(0, end));
  }
  return literalStart(text);
}

/** A fragment that is one group throughout (anchors aside), opened down to its alternatives. */
function unwrapGroups(fragment: string): string {
  let body = fragment.replace(LEADING_ANCHORS, '');
  while (body.startsWith('(') && groupEnd(body, 0) === body.length)
    body = body
      .replace(/^\((?:\?:)?/, '')
      .slice(0, -1)
      .replace(LEADING_ANCHORS, '');
  return body;
}

/** The shortest literal prefix over the fragment's alternatives, or '' when one has none. */
export function distinctivePrefix(fragment: string): string {
  const body = unwrapGroups(fragment);
  let shortest: string | undefined;
  for (const branch of branches(body)) {
    const prefix = branchPrefix(branch);
    if (!isDistinctive(prefix)) return '';
    if (shortest === undefined || prefix.length < shortest.length) shortest = prefix;
  }
  return shortest ?? '';
}

/**
 * Whether a secret's pattern is one fixed shape: character classes of exact counts and literal
 * characters (`[a-z0-9]{14}`, `[a-f0-9]{8}:[a-f0-9]{8}`), no alternatives and no open ranges.
 * After a provider's name, such a value is that provider's credential whatever its entropy.
 */
export function isFixedShape(group: string): boolean {
  return /^(?:\[[^\]]+\]\{\d+\}|\\[dw]\{\d+\}|\\[.\-_:/]|[A-Za-z0-9_:-])+$/.test(group) && /\{\d+\}/.test(group);
}

/**
 * The literal text each alternative of a pattern begins with (through groups it opens with, such
 * as `\\b(?:AKIA|ASIA)`); '' for an alternative that begins with a class, a lookaround or an
 * optional part. Every match begins with one of them.
 */
export function leadingLiterals(fragment: string): string[] {
  const body = unwrapGroups(fragment);
  return branches(body).flatMap((branch) => {
    const text = branch.replace(LEADING_ANCHORS, '');
    if (/^\((?:\?:)?(?!\?)/.test(text)) {
      const end = groupEnd(text, 0);
      if (end > 0 && !/^[?*{]/.test(text.slice(end))) return leadingLiterals(text.slice(0, end));
      return [''];
    }
    return [literalStart(text)];
  });
}

/** One escape: a code (`\x60`, `\u{1F600}`), a property (`\p{L}`), a back-reference (`\k<name>`, `\1`), or one character. */
const ESCAPE = /^\\(?:x[0-9A-Fa-f]{2}|u(?:[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\})|[pP]\{[^}]*\}|k<[^>]*>|c[A-Za-z]|[1-9]\d*|[\s\S])/;

/** A quantifier that lets what precedes it be absent (`?`, `*`, `{0,…}`). */
const OPTIONAL_AFTER = /^(?:[?*]|\{0[,}])/;
/** Any quantifier (lazy or not): the element before it may repeat, so it ends a literal run. */
const QUANTIFIER = /^(?:[?*+]|\{\d+(?:,\d*)?\})\??/;

/**
 * The literal runs every match of a pattern holds, in order: the pieces of its top-level
 * sequence between classes, optional parts and alternatives (a group of one branch that must
 * match is read through). `https://[\w-]+\.tines\.com/webhook\b/…` holds `https://`, `.tines.com/webhook`,
 * `/`. Escaped punctuation counts as literal; case flags are the caller's to apply.
 */
export function requiredLiterals(fragment: string): string[] {
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  const walk = (body: string) => {
    for (let index = 0; index < body.length;) {
      const char = body[index]!;
      let element: { literal?: string; next: number; inner?: string };
      if (char === '\\') {
        const escape = ESCAPE.exec(body.slice(index))![0];
        // `\b`, `\B` match no character: they neither add to a run nor end it.
        if (escape === '\\b' || escape === '\\B') {
          index += 2;
          continue;
        }
        // Escaped punctuation is that character; a class, a code (`\x60`) or a back-reference is not literal here.
        element = /^\\[^A-Za-z0-9]$/.test(escape) ? { literal: escape[1], next: index + 2 } : { next: index + escape.length };
      } else if (char === '[') {
        let close = index + 1;
        if (body[close] === '^') close++;
        if (body[close] === ']') close++;
        for (; close < body.length && body[close] !== ']'; close++) if (body[close] === '\\') close++;
        element = { next: close + 1 };
      } else if (char === '(') {
        const close = groupEnd(body, index);
        if (close === -1) return end();
        const opener = /^\((?:\?:|\?P?<[A-Za-z_]\w*>|\?[a-z]*:)?/.exec(body.slice(index))![0];
        const flagsOnly = /^\(\?[a-z-]+\)$/.test(body.slice(index, close));
        if (flagsOnly) {
          index = close;
          continue;
        }
        const lookaround = body.startsWith('(?=', index) || body.startsWith('(?!', index) || body.startsWith('(?<=', index) || body.startsWith('(?<!', index);
        const inner = body.slice(index + opener.length, close - 1);
        element = { next: close, ...(lookaround || branches(inner).length > 1 ? {} : { inner }) };
      } else if (char === '^' || char === '$') {
        index++;
        continue;
      } else if (char === '.' || char === '|') {
        element = { next: index + 1 };
      } else element = { literal: char, next: index + 1 };
      const rest = body.slice(element.next);
      const optional = OPTIONAL_AFTER.test(rest);
      const repeated = QUANTIFIER.exec(rest);
      if (optional) end();
      else if (element.inner !== undefined) {
        walk(element.inner);
        if (repeated) end();
      } else if (element.literal !== undefined) {
        run += element.literal;
        if (repeated) end();
      } else end();
      index = element.next + (repeated ? repeated[0].length : 0);
    }
  };
  if (branches(fragment).length > 1) return [];
  walk(fragment);
  end();
  return runs;
}
