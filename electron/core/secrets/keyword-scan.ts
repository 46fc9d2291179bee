/**
 * Finds every place where any of many keywords occurs, case-insensitively for ASCII, in one pass
 * over the text: an Aho-Corasick automaton flattened into a transition table, as gitleaks'
 * prefilter does. A regex alternation of 250 words runs at about 20 MB/s in V8; this runs at
 * several hundred, which is what keeps redaction of a whole command's output cheap.
 */

// Characters fold to ASCII lower case; all others share class 0, since no keyword holds them.

/** A scanner keeps its copy buffer for texts up to this size; a larger text gets one of its own. */
const RETAINED_BYTES = 4 * 1024 * 1024;

export interface KeywordHit {
  keyword: number;
  /** Where the keyword starts. */
  start: number;
}

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
    this.outputs = ends.map((list) => (list.length > 0 ? list : undefined));
    this.delta = new Int32Array(states * classes);
    for (let index = 0; index < next.length; index++) {
      const state = next[index]!;
      this.delta[index] = ends[state]!.length > 0 ? -(state * classes) - 1 : state * classes;
    }
  }

  /** The text as one byte per UTF-16 unit (see `scan`), kept for the next scan up to RETAINED_BYTES. */
  private bytes = Buffer.alloc(0);

  /**
   * Calls `onHit` for every occurrence, overlapping ones included, in order of their end. The
   * text is read through a Latin-1 copy (made natively, at gigabytes a second) because typed-array
   * loads run about 1.5 times as fast as `charCodeAt`; a character above U+00FF keeps only its low
   * byte there, which can add a hit (the rules then find nothing) but never hide an ASCII keyword.
   */
  scan(text: string, onHit: (keyword: number, start: number) => void): void {
    if (this.bytes.length < text.length && text.length <= RETAINED_BYTES) this.bytes = Buffer.allocUnsafe(Math.min(RETAINED_BYTES, Math.max(text.length, this.bytes.length * 2)));
    const bytes = text.length <= this.bytes.length ? this.bytes : Buffer.allocUnsafe(text.length);
    const length = bytes.write(text, 0, 'latin1');
    const { classOf, delta, classes, outputs, lengths } = this;
    let row = 0;
    for (let index = 0; index < length; index++) {
      row = delta[row + classOf[bytes[index]!]!]!;
      if (row < 0) {
        row = -row - 1;
        for (const keyword of outputs[row / classes]!) onHit(keyword, index - lengths[keyword]! + 1);
      }
    }
  }
}
