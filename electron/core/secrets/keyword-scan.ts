/**
 * Finds every place where any of many keywords occurs, case-insensitively for ASCII, in one pass
 * over the text: an Aho-Corasick automaton flattened into a transition table, as gitleaks'
 * prefilter does. A regex alternation of 250 words runs at about 20 MB/s in V8; this runs at
 * several hundred, which is what keeps redaction of a whole command's output cheap.
 */

/** A scanner keeps its copy buffer for texts up to this size; a larger text gets one of its own. */
const RETAINED_BYTES = 4 * 1024 * 1024;

/**
 * What a scanner is made of: saved at build time for the default keyword set
 * (rules/gitleaks.generated.json), so that a start loads its automaton instead of building it,
 * which took a third of a start with gitleaks' rules.
 */
export interface ScannerTables {
  keywords: readonly string[];
  /** Each byte's class; 0 for every byte no keyword holds. */
  classOf: Uint8Array;
  /** By state, then class: the next state's row, negated minus one where keywords end (see KeywordScanner.delta). */
  delta: Int32Array;
  /** By state: the keywords that end there, or undefined. */
  outputs: readonly (readonly number[] | undefined)[];
  /**
   * The trie and its fail links, by state (numbered breadth first, so a state's parent and fail
   * state come before it): what `delta` is made from, and all that needs saving.
   */
  trie: Trie;
}

export interface Trie {
  parent: Uint16Array;
  /** The class of the character from the parent. */
  symbol: Uint8Array;
  fail: Uint16Array;
}

export class KeywordScanner {
  /** Every byte has a class, so the hot loop needs no range check. */
  private readonly classOf: Uint8Array;
  private readonly classes: number;
  /**
   * The next state's row (state × classes), negated minus one when keywords end there: one load
   * per character both moves and says whether to look for hits.
   */
  private readonly delta: Int32Array;
  /** For each state, the keywords that end there (its own and those of its fail chain). */
  private readonly outputs: readonly (readonly number[] | undefined)[];
  private readonly lengths: number[];
  /** The longest keyword's length. */
  private readonly longest: number;
  private readonly trie: Trie;
  /** Whether the automaton was loaded from saved tables rather than built. */
  readonly prebuilt: boolean;

  /** Builds the automaton for `keywords`, or adopts `tables` of one built for the same keywords (keyword-tables.ts loads saved ones). */
  constructor(
    private readonly keywords: readonly string[],
    tables?: ScannerTables,
  ) {
    const made = tables ? checkedTables(keywords, tables) : buildTables(keywords);
    this.classOf = made.classOf;
    this.delta = made.delta;
    this.outputs = made.outputs;
    this.trie = made.trie;
    this.classes = classCount(made.classOf);
    this.prebuilt = tables !== undefined;
    this.lengths = keywords.map((keyword) => keyword.length);
    this.longest = Math.max(1, ...this.lengths);
  }

  /** The automaton's tables, to be saved and given back to the constructor. */
  tables(): ScannerTables {
    return { keywords: this.keywords, classOf: this.classOf, delta: this.delta, outputs: this.outputs, trie: this.trie };
  }

  /** The text as one byte per UTF-16 unit (see `scan`), kept for the next scan up to RETAINED_BYTES. */
  private bytes = Buffer.alloc(0);

  /** Every occurrence, overlapping ones included, in order of their end (see `collect`). */
  scan(text: string, onHit: (keyword: number, start: number) => void): void {
    const hits = this.collect(text);
    for (let index = 0; index < hits.count; index++) onHit(hits.keywords[index]!, hits.starts[index]!);
  }

  private readonly front = new HitList();
  private readonly back = new HitList();

  /**
   * Every occurrence, overlapping ones included, in order of their end, in arrays the scanner
   * keeps and overwrites on its next call (common words such as `key` and `token` occur on most
   * lines of a command's output, so a hit must cost little).
   *
   * The text is read through a Latin-1 copy (made natively, at gigabytes a second) because
   * typed-array loads run about 1.5 times as fast as `charCodeAt`; a character above U+00FF keeps
   * only its low byte there, which can add a hit (the rules then find nothing) but never hide an
   * ASCII keyword.
   *
   * Each step's table load waits for the one before, so one walk leaves the core mostly idle: the
   * text's two halves are walked in the same loop, the back one starting a keyword's length early
   * so that a keyword across the middle is found by it, and its hits that end before the middle
   * (the front walk's) dropped.
   */
  collect(text: string): KeywordHits {
    if (this.bytes.length < text.length && text.length <= RETAINED_BYTES) this.bytes = Buffer.allocUnsafe(Math.min(RETAINED_BYTES, Math.max(text.length, this.bytes.length * 2)));
    const bytes = text.length <= this.bytes.length ? this.bytes : Buffer.allocUnsafe(text.length);
    const length = bytes.write(text, 0, 'latin1');
    const { classOf, delta, front, back } = this;
    front.count = 0;
    back.count = 0;
    const middle = length >> 1;
    const backStart = Math.max(0, middle - this.longest + 1);
    let frontRow = 0;
    let backRow = 0;
    let index = 0;
    let other = backStart;
    for (; index < middle; index++, other++) {
      frontRow = delta[frontRow + classOf[bytes[index]!]!]!;
      backRow = delta[backRow + classOf[bytes[other]!]!]!;
      if (frontRow < 0) frontRow = this.record(front, frontRow, index);
      if (backRow < 0) backRow = other >= middle ? this.record(back, backRow, other) : -backRow - 1;
    }
    for (; other < length; other++) {
      backRow = delta[backRow + classOf[bytes[other]!]!]!;
      if (backRow < 0) backRow = other >= middle ? this.record(back, backRow, other) : -backRow - 1;
    }
    front.append(back);
    return front;
  }

  /** Adds the keywords that end at `index` to `hits`; returns the state's row. */
  private record(hits: HitList, encoded: number, index: number): number {
    const row = -encoded - 1;
    for (const keyword of this.outputs[row / this.classes]!) hits.push(keyword, index - this.lengths[keyword]! + 1);
    return row;
  }
}

/** Where `collect` puts its hits: the first `count` entries of both arrays. */
export interface KeywordHits {
  readonly count: number;
  readonly keywords: Int32Array;
  readonly starts: Int32Array;
}

class HitList implements KeywordHits {
  count = 0;
  keywords = new Int32Array(1024);
  starts = new Int32Array(1024);

  push(keyword: number, start: number): void {
    if (this.count === this.keywords.length) this.reserve(this.count * 2);
    this.keywords[this.count] = keyword;
    this.starts[this.count++] = start;
  }

  append(other: HitList): void {
    if (this.count + other.count > this.keywords.length) this.reserve((this.count + other.count) * 2);
    this.keywords.set(other.keywords.subarray(0, other.count), this.count);
    this.starts.set(other.starts.subarray(0, other.count), this.count);
    this.count += other.count;
  }

  private reserve(size: number): void {
    this.keywords = grow(this.keywords, size);
    this.starts = grow(this.starts, size);
  }
}

function grow(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(size);
  larger.set(array);
  return larger;
}

/** How many classes a class table uses (class 0 included). */
export function classCount(classOf: Uint8Array): number {
  let highest = 0;
  for (const value of classOf) if (value > highest) highest = value;
  return highest + 1;
}

/** Tables checked against the keywords they claim to be for (their entries are checked as they are loaded, by keyword-tables.ts). */
function checkedTables(keywords: readonly string[], tables: ScannerTables): ScannerTables {
  if (tables.keywords.length !== keywords.length || tables.keywords.some((keyword, index) => keyword !== keywords[index]))
    throw new Error('saved keyword-scanner tables: they were built for other keywords');
  if (tables.delta.length !== tables.outputs.length * classCount(tables.classOf))
    throw new Error(`saved keyword-scanner tables: ${tables.delta.length} transitions are not ${tables.outputs.length} states × ${classCount(tables.classOf)} classes`);
  return tables;
}

function buildTables(keywords: readonly string[]): ScannerTables {
  // Characters fold to ASCII lower case; all others share class 0, since no keyword holds them.
  const classOf = new Uint8Array(256);
  let classes = 1;
  for (const keyword of keywords) {
    for (const char of keyword.toLowerCase()) {
      const code = char.charCodeAt(0);
      if (code >= 128) throw new Error(`keyword ${JSON.stringify(keyword)} is not ASCII`);
      if (classOf[code] === 0) classOf[code] = classes++;
    }
  }
  for (let code = 65; code <= 90; code++) classOf[code] = classOf[code + 32]!;
  // The trie, then breadth-first fail links folded into full transitions.
  // One flat table, sized for the most states the keywords can make: an array per state made a
  // start with 1,400 stopwords spend more in the collector than in building.
  const capacity = 1 + keywords.reduce((sum, keyword) => sum + keyword.length, 0);
  const trie = new Int32Array(capacity * classes).fill(-1);
  const ends: number[][] = [[]];
  const parentOf: number[] = [0];
  const symbolOf: number[] = [0];
  keywords.forEach((keyword, index) => {
    let state = 0;
    for (const char of keyword.toLowerCase()) {
      const symbol = classOf[char.charCodeAt(0)]!;
      if (trie[state * classes + symbol] === -1) {
        trie[state * classes + symbol] = ends.length;
        ends.push([]);
        parentOf.push(state);
        symbolOf.push(symbol);
      }
      state = trie[state * classes + symbol]!;
    }
    ends[state]!.push(index);
  });
  const states = ends.length;
  const next = new Int32Array(states * classes);
  const fail = new Int32Array(states);
  const queue: number[] = [];
  for (let symbol = 0; symbol < classes; symbol++) {
    const child = trie[symbol]!;
    next[symbol] = child === -1 ? 0 : child;
    if (child > 0) queue.push(child);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    ends[state]!.push(...ends[fail[state]!]!);
    for (let symbol = 0; symbol < classes; symbol++) {
      const child = trie[state * classes + symbol]!;
      if (child === -1) {
        next[state * classes + symbol] = next[fail[state]! * classes + symbol]!;
      } else {
        fail[child] = next[fail[state]! * classes + symbol]!;
        next[state * classes + symbol] = child;
        queue.push(child);
      }
    }
  }
  // Renumbered breadth first: text keeps the automaton in its shallow states, whose rows then
  // share the first few cache lines instead of being spread over the whole table.
  const order = [0, ...queue];
  const rank = new Int32Array(states);
  order.forEach((state, position) => (rank[state] = position));
  const outputs = order.map((state) => (ends[state]!.length > 0 ? ends[state] : undefined));
  const delta = new Int32Array(states * classes);
  order.forEach((state, position) => {
    for (let symbol = 0; symbol < classes; symbol++) {
      const target = next[state * classes + symbol]!;
      const row = rank[target]! * classes;
      delta[position * classes + symbol] = ends[target]!.length > 0 ? -row - 1 : row;
    }
  });
  if (states > 0xffff) throw new Error(`${states} keyword-automaton states are more than a trie table holds (65,535)`);
  const parent = new Uint16Array(states);
  const symbol = new Uint8Array(states);
  const failed = new Uint16Array(states);
  order.forEach((state, position) => {
    parent[position] = rank[parentOf[state]!]!;
    symbol[position] = symbolOf[state]!;
    failed[position] = rank[fail[state]!]!;
  });
  return { keywords, classOf, delta, outputs, trie: { parent, symbol, fail: failed } };
}
