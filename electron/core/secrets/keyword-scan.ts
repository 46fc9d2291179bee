/**
 * Finds every place where any of many keywords occurs, case-insensitively for ASCII, in one pass
 * over the text: an Aho-Corasick automaton flattened into a transition table, as gitleaks'
 * prefilter does. A regex alternation of 250 words runs at about 20 MB/s in V8; this runs at
 * several hundred, which is what keeps redaction of a whole command's output cheap.
 */

// Characters fold to ASCII lower case; all others share class 0, since no keyword holds them.

/** A scanner keeps its copy buffer for texts up to this size; a larger text gets one of its own. */
const RETAINED_BYTES = 4 * 1024 * 1024;

export class KeywordScanner {
  /** Every byte has a class, so the hot loop needs no range check. */
  private readonly classOf = new Uint8Array(256);
  private readonly classes: number;
  /**
   * The next state's row (state × classes), negated minus one when keywords end there: one load
   * per character both moves and says whether to look for hits.
   */
  private readonly delta: Int32Array;
  /** For each state, the keywords that end there (its own and those of its fail chain). */
  private readonly outputs: (number[] | undefined)[];
  private readonly lengths: number[];
  /** The longest keyword's length. */
  private readonly longest: number;

  constructor(keywords: readonly string[]) {
    let classes = 1;
    for (const keyword of keywords) {
      for (const char of keyword.toLowerCase()) {
        const code = char.charCodeAt(0);
        if (code >= 128) throw new Error(`keyword ${JSON.stringify(keyword)} is not ASCII`);
        if (this.classOf[code] === 0) this.classOf[code] = classes++;
      }
    }
    for (let code = 65; code <= 90; code++) this.classOf[code] = this.classOf[code + 32]!;
    this.classes = classes;
    this.lengths = keywords.map((keyword) => keyword.length);
    this.longest = Math.max(1, ...this.lengths);

    // The trie, then breadth-first fail links folded into full transitions.
    const trie: number[][] = [new Array<number>(classes).fill(-1)];
    const ends: number[][] = [[]];
    keywords.forEach((keyword, index) => {
      let state = 0;
      for (const char of keyword.toLowerCase()) {
        const symbol = this.classOf[char.charCodeAt(0)]!;
        if (trie[state]![symbol] === -1) {
          trie[state]![symbol] = trie.length;
          trie.push(new Array<number>(classes).fill(-1));
          ends.push([]);
        }
        state = trie[state]![symbol]!;
      }
      ends[state]!.push(index);
    });
    const states = trie.length;
    const next = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let symbol = 0; symbol < classes; symbol++) {
      const child = trie[0]![symbol]!;
      next[symbol] = child === -1 ? 0 : child;
      if (child > 0) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let symbol = 0; symbol < classes; symbol++) {
        const child = trie[state]![symbol]!;
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
    this.outputs = order.map((state) => (ends[state]!.length > 0 ? ends[state] : undefined));
    this.delta = new Int32Array(states * classes);
    order.forEach((state, position) => {
      for (let symbol = 0; symbol < classes; symbol++) {
        const target = next[state * classes + symbol]!;
        const row = rank[target]! * classes;
        this.delta[position * classes + symbol] = ends[target]!.length > 0 ? -row - 1 : row;
      }
    });
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
