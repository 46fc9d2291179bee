/**
 * The hashline patch format: sections headed `[path#TAG]`, each followed by line-addressed
 * operations whose new lines are written one per patch line behind a `|`:
 *
 *     [src/app.ts#k3f9a2]
 *     replace 12
 *     |    const x = 1;
 *     delete 30-31
 *     insert after 40
 *     |added line
 *
 * Everything after the `|` is the line, verbatim, so indentation is never guessed; a lone `|`
 * is an empty line. Operation words are fixed, which keeps parse errors specific.
 */
import { ToolError } from '../agent/types';
import { TAG_PATTERN } from './hashline-tag';

export interface RangeOperation {
  kind: 'replace' | 'delete';
  /** 1-based, inclusive, in the file as the model was shown it. */
  first: number;
  last: number;
  body: string[];
  /** The operation as written, and where, for messages. */
  label: string;
  patchLine: number;
}

export interface InsertOperation {
  kind: 'insert';
  position: 'before' | 'after' | 'head' | 'tail';
  /** The anchor line for `before`/`after`; 0 for `head`/`tail`. */
  line: number;
  body: string[];
  label: string;
  patchLine: number;
}

export type Operation = RangeOperation | InsertOperation;

export interface PatchSection {
  path: string;
  tag: string;
  patchLine: number;
  operations: Operation[];
}

const HEADER = /^\[(.*)\]$/;
const RANGE_OPERATION = /^(replace|delete)\s+(\d+)(?:\s*-\s*(\d+))?$/;
const ANCHORED_INSERT = /^insert\s+(before|after)\s+(\d+)$/;
const EDGE_INSERT = /^insert\s+(head|tail)$/;
const EXPECTED =
  'expected a section header [path#TAG], an operation (replace N, replace N-M, delete N, delete N-M, ' +
  'insert before N, insert after N, insert head, insert tail) or a body line starting with |';

/** Parses the whole patch, reporting every problem at once with its patch line number. */
export function parsePatch(patch: string): PatchSection[] {
  const problems: string[] = [];
  const sections: PatchSection[] = [];
  let section: PatchSection | undefined;
  let operation: Operation | undefined;
  /** A blank line after a body makes a following `|` line ambiguous. */
  let blankAfterBody = false;

  const closeOperation = () => {
    if (operation && operation.kind !== 'delete' && operation.body.length === 0) {
      problems.push(
        `patch line ${operation.patchLine}: "${operation.label}" has no new lines; add lines starting with |` + (operation.kind === 'replace' ? ' (or use delete to remove lines)' : ''),
      );
    }
    operation = undefined;
  };
  const closeSection = () => {
    closeOperation();
    if (section && section.operations.length === 0) {
      problems.push(`patch line ${section.patchLine}: section [${section.path}#${section.tag}] has no operations`);
    }
  };

  const lines = patch.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, index) => {
    const number = index + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '') {
      if (operation && operation.body.length > 0) blankAfterBody = true;
      return;
    }
    if (trimmed.startsWith('|')) {
      const text = line.slice(line.indexOf('|') + 1);
      if (!operation) {
        problems.push(`patch line ${number}: body line outside an operation; put it under replace or insert`);
      } else if (operation.kind === 'delete') {
        problems.push(`patch line ${number}: "${operation.label}" takes no body lines; use replace to change lines`);
      } else if (blankAfterBody) {
        problems.push(`patch line ${number}: blank line inside the body of "${operation.label}"; write an empty line as a lone |`);
        blankAfterBody = false;
      } else {
        operation.body.push(text);
      }
      return;
    }
    blankAfterBody = false;

    const header = HEADER.exec(trimmed);
    if (header) {
      closeSection();
      section = parseHeader(header[1]!, number, problems);
      sections.push(section);
      return;
    }

    closeOperation();
    const parsed = parseOperation(trimmed, number, problems);
    if (!parsed) return;
    if (!section) {
      problems.push(`patch line ${number}: "${trimmed}" comes before any section header [path#TAG]`);
      return;
    }
    section.operations.push(parsed);
    operation = parsed;
  });
  closeSection();

  if (sections.length === 0 && problems.length === 0) problems.push('the patch is empty; start with a section header [path#TAG]');
  if (problems.length > 0) throw ToolError.invalidArgs(`Invalid patch:\n${problems.slice(0, 20).join('\n')}`);
  return sections;
}

function parseHeader(inside: string, number: number, problems: string[]): PatchSection {
  const hash = inside.lastIndexOf('#');
  const path = (hash < 0 ? inside : inside.slice(0, hash)).trim();
  const tag = hash < 0 ? '' : inside.slice(hash + 1).trim();
  if (hash < 0) {
    problems.push(`patch line ${number}: header [${inside}] has no tag; copy [path#TAG] from the read_file output`);
  } else if (!TAG_PATTERN.test(tag)) {
    problems.push(`patch line ${number}: "${tag}" is not a file tag; tags are the 6 letters/digits after # in the read_file output`);
  }
  if (path === '') problems.push(`patch line ${number}: header [${inside}] has no path`);
  return { path, tag, patchLine: number, operations: [] };
}

function parseOperation(text: string, number: number, problems: string[]): Operation | undefined {
  const range = RANGE_OPERATION.exec(text);
  if (range) {
    const first = Number(range[2]);
    const last = range[3] === undefined ? first : Number(range[3]);
    if (first < 1) return void problems.push(`patch line ${number}: "${text}": line numbers start at 1`);
    if (last < first) return void problems.push(`patch line ${number}: "${text}": the range ends before it starts`);
    return { kind: range[1] as 'replace' | 'delete', first, last, body: [], label: text, patchLine: number };
  }
  const anchored = ANCHORED_INSERT.exec(text);
  if (anchored) {
    const line = Number(anchored[2]);
    if (line < 1) return void problems.push(`patch line ${number}: "${text}": line numbers start at 1 (use insert head)`);
    return { kind: 'insert', position: anchored[1] as 'before' | 'after', line, body: [], label: text, patchLine: number };
  }
  const edge = EDGE_INSERT.exec(text);
  if (edge) return { kind: 'insert', position: edge[1] as 'head' | 'tail', line: 0, body: [], label: text, patchLine: number };
  problems.push(`patch line ${number}: cannot read "${text.length > 60 ? `${text.slice(0, 60)}…` : text}"; ${EXPECTED}`);
  return undefined;
}

/** The gap an insertion goes into: gap g lies between line g and line g+1 (0 = before line 1). */
export function insertionGap(operation: InsertOperation, lineCount: number): number {
  switch (operation.position) {
    case 'head':
      return 0;
    case 'tail':
      return lineCount;
    case 'before':
      return operation.line - 1;
    case 'after':
      return operation.line;
  }
}

/**
 * Checks a section against the file it addresses (as the model saw it): lines exist and no two
 * operations touch the same lines or insert at the same place. Returns the problems found.
 */
export function checkOperations(operations: readonly Operation[], lineCount: number, path: string): string[] {
  const problems: string[] = [];
  const where = (operation: Operation) => `"${operation.label}" (patch line ${operation.patchLine})`;
  for (const operation of operations) {
    const highest = operation.kind === 'insert' ? operation.line : operation.last;
    if (highest > lineCount) {
      problems.push(`${where(operation)}: ${path} had ${lineCount} line${lineCount === 1 ? '' : 's'} when you read it`);
    }
  }
  if (problems.length > 0) return problems;

  for (let i = 0; i < operations.length; i++) {
    for (let j = i + 1; j < operations.length; j++) {
      const conflict = describeConflict(operations[i]!, operations[j]!, lineCount);
      if (conflict) problems.push(`${where(operations[i]!)} and ${where(operations[j]!)} ${conflict}`);
    }
  }
  return problems;
}

function describeConflict(a: Operation, b: Operation, lineCount: number): string | undefined {
  if (a.kind !== 'insert' && b.kind !== 'insert') {
    const first = Math.max(a.first, b.first);
    const last = Math.min(a.last, b.last);
    if (first > last) return undefined;
    return `both touch line${first === last ? ` ${first}` : `s ${first}-${last}`}; merge them into one operation`;
  }
  if (a.kind === 'insert' && b.kind === 'insert') {
    if (insertionGap(a, lineCount) !== insertionGap(b, lineCount)) return undefined;
    return 'insert at the same place; put all the new lines under one insert';
  }
  const insert = (a.kind === 'insert' ? a : b) as InsertOperation;
  const range = (a.kind === 'insert' ? b : a) as RangeOperation;
  const gap = insertionGap(insert, lineCount);
  if (gap < range.first || gap >= range.last) return undefined;
  return `overlap: the insertion falls inside lines ${range.first}-${range.last}; ${range.kind === 'replace' ? 'put the new lines in the replacement' : 'use one replace instead'}`;
}
