/**
 * A keyword automaton saved as JSON and loaded without building it (rules/gitleaks.generated.json
 * holds the default set's). What is saved is the trie and its fail links, 5 bytes a state, not
 * the 270 KB transition table: loading makes each state's row a native copy of its fail state's
 * row with its own children written in, one pass in state order with no search.
 */
import { classCount, type ScannerTables } from './keyword-scan';

export interface SavedScanner {
  keywords: string[];
  /** The 256 bytes' classes, base64. */
  classOf: string;
  /** By state, base64 of little-endian 16-bit numbers: the trie parent (0 for the start state). */
  parent: string;
  /** By state, base64 bytes: the class of the character from its parent. */
  symbol: string;
  /** By state, base64 of little-endian 16-bit numbers: the fail state. */
  fail: string;
  /** `[state, keyword…]` for each state where keywords end. */
  outputs: number[][];
}

/** Typed arrays hold numbers in the machine's order; the saved ones are little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function uint16Base64(values: Uint16Array): string {
  const bytes = Buffer.alloc(values.length * 2);
  values.forEach((value, index) => bytes.writeUInt16LE(value, index * 2));
  return bytes.toString('base64');
}

function uint16s(base64: string, what: string, wrong: (what: string) => never): Uint16Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length % 2 !== 0) wrong(`${what} holds ${bytes.length} bytes, not a whole number of 16-bit entries`);
  // Copied into an array of its own: one decoded into Node's pool may sit where no Uint16Array can start.
  const values = new Uint16Array(bytes.length / 2);
  if (LITTLE_ENDIAN) new Uint8Array(values.buffer).set(bytes);
  else for (let index = 0; index < values.length; index++) values[index] = bytes.readUInt16LE(index * 2);
  return values;
}

export function saveTables(tables: ScannerTables): SavedScanner {
  const { trie } = tables;
  return {
    keywords: [...tables.keywords],
    classOf: Buffer.from(tables.classOf).toString('base64'),
    parent: uint16Base64(trie.parent),
    symbol: Buffer.from(trie.symbol).toString('base64'),
    fail: uint16Base64(trie.fail),
    outputs: tables.outputs.flatMap((ends, state) => (ends ? [[state, ...ends]] : [])),
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
  const parent = uint16s(saved.parent, 'parent', wrong);
  const fail = uint16s(saved.fail, 'fail', wrong);
  const symbol = new Uint8Array(Buffer.from(saved.symbol, 'base64'));
  const states = parent.length;
  if (fail.length !== states || symbol.length !== states) wrong(`parent, symbol and fail list ${states}, ${symbol.length} and ${fail.length} states`);
  const outputs: (number[] | undefined)[] = Array.from({ length: states }, () => undefined);
  for (const [state, ...ends] of saved.outputs) {
    if (!(state! >= 0 && state! < states) || ends.some((keyword) => !(keyword >= 0 && keyword < saved.keywords.length)))
      wrong(`the output ${JSON.stringify([state, ...ends])} names no state or keyword`);
    outputs[state!] = ends;
  }
  // A row's entry is the target's row, negated minus one where keywords end there.
  const size = states * classes;
  const delta = new Int32Array(size);
  if (outputs[0]) delta.fill(-1, 0, classes);
  // Breadth-first numbering puts a state's children together, after it, and its fail state before
  // it: one pass in order finishes each row before any later one copies it.
  let child = 1;
  for (let state = 0; state < states; state++) {
    const row = state * classes;
    if (state > 0) {
      const from = fail[state]! * classes;
      if (fail[state]! >= state) wrong(`state ${state} fails to state ${fail[state]}, not an earlier one`);
      delta.copyWithin(row, from, from + classes);
    }
    for (; child < states && parent[child] === state; child++) {
      if (symbol[child]! >= classes) wrong(`state ${child} is reached by class ${symbol[child]} of ${classes}`);
      delta[row + symbol[child]!] = outputs[child] ? -child * classes - 1 : child * classes;
    }
  }
  if (child !== states) wrong(`state ${child}'s parent ${parent[child]} does not come in breadth-first order`);
  return { keywords: saved.keywords, classOf, delta, outputs, trie: { parent, symbol, fail } };
}
