/**
 * A keyword automaton's tables as JSON, small enough that loading them costs less than building
 * them (rules/gitleaks.generated.json holds the default set's). The transition table of 1,500
 * states × 45 classes is 270 KB, but a state's row differs from the start state's in about 7
 * places (its trie children and those of its fail chain): only those are saved, and loading
 * copies the start row into every row, then writes them in.
 */
import { classCount, type ScannerTables } from './keyword-scan';

export interface SavedScanner {
  keywords: string[];
  /** The 256 bytes' classes, base64. */
  classOf: string;
  /** By state, base64 bytes: how many of its transitions differ from the start state's (the start state's own: from going to itself). */
  counts: string;
  /** Those transitions in state order, base64 of little-endian 32-bit numbers: the target state's row plus the class. */
  transitions: string;
  /** `[state, keyword…]` for each state where keywords end. */
  outputs: number[][];
}

/** A row's entries hold the target's row, negated minus one where keywords end there. */
const rowOf = (entry: number) => (entry < 0 ? -entry - 1 : entry);

export function saveTables(tables: ScannerTables): SavedScanner {
  const { classOf, delta, outputs } = tables;
  const classes = classCount(classOf);
  const counts = Buffer.alloc(outputs.length);
  const transitions: number[] = [];
  for (let state = 0; state < outputs.length; state++) {
    for (let symbol = 0; symbol < classes; symbol++) {
      const entry = delta[state * classes + symbol]!;
      if (state === 0 ? entry === 0 : entry === delta[symbol]) continue;
      counts[state]!++;
      transitions.push(rowOf(entry) + symbol);
    }
  }
  const packed = Buffer.alloc(transitions.length * 4);
  transitions.forEach((value, index) => packed.writeInt32LE(value, index * 4));
  return {
    keywords: [...tables.keywords],
    classOf: Buffer.from(classOf).toString('base64'),
    counts: counts.toString('base64'),
    transitions: packed.toString('base64'),
    outputs: outputs.flatMap((ends, state) => (ends ? [[state, ...ends]] : [])),
  };
}

/** The tables saved by `saveTables`, checked as they are read: a bad entry would lose hits, i.e. leak secrets. */
export function loadTables(saved: SavedScanner): ScannerTables {
  const wrong = (what: string): never => {
    throw new Error(`saved keyword-scanner tables: ${what}`);
  };
  const classOf = new Uint8Array(Buffer.from(saved.classOf, 'base64'));
  if (classOf.length !== 256) wrong(`classOf has ${classOf.length} entries, not 256`);
  const classes = classCount(classOf);
  const counts = Buffer.from(saved.counts, 'base64');
  const transitions = Buffer.from(saved.transitions, 'base64');
  const states = counts.length;
  const size = states * classes;
  const outputs: (number[] | undefined)[] = Array.from({ length: states }, () => undefined);
  for (const [state, ...ends] of saved.outputs) {
    if (!(state! >= 0 && state! < states) || ends.some((keyword) => !(keyword >= 0 && keyword < saved.keywords.length)))
      wrong(`the output ${JSON.stringify([state, ...ends])} names no state or keyword`);
    outputs[state!] = ends;
  }
  const delta = new Int32Array(size);
  let read = 0;
  const apply = (state: number) => {
    for (let left = counts[state]!; left > 0; left--, read += 4) {
      if (read + 4 > transitions.length) wrong(`the counts name more than the ${transitions.length / 4} transitions saved`);
      const value = transitions.readInt32LE(read);
      const symbol = value % classes;
      const row = value - symbol;
      if (!(row >= 0 && row < size)) wrong(`transition ${read / 4} (${value}) names no state`);
      delta[state * classes + symbol] = outputs[row / classes] ? -row - 1 : row;
    }
  };
  if (states > 0) apply(0);
  // Every row starts as the start state's, copied natively in doubling steps.
  for (let filled = classes; filled < size; filled *= 2) delta.copyWithin(filled, 0, Math.min(filled, size - filled));
  for (let state = 1; state < states; state++) apply(state);
  if (read !== transitions.length) wrong(`${(transitions.length - read) / 4} transitions are left over`);
  return { keywords: saved.keywords, classOf, delta, outputs };
}
