/**
 * Display names for subagents: a pool of 25, picked by a splitmix64 hash of the subagent's id,
 * so the same id always gets the same name, in every process and after every restart.
 */
export const DISPLAY_NAMES = [
  'Ada',
  'Basil',
  'Cedar',
  'Dune',
  'Ember',
  'Fern',
  'Gale',
  'Harbor',
  'Iris',
  'Juniper',
  'Kestrel',
  'Lark',
  'Moss',
  'Nova',
  'Onyx',
  'Pike',
  'Quill',
  'Reed',
  'Sage',
  'Tide',
  'Umber',
  'Vale',
  'Wren',
  'Yarrow',
  'Zephyr',
] as const;

const MASK = (1n << 64n) - 1n;

/** One step of splitmix64 (Steele, Lea and Flood), on 64-bit unsigned integers. */
export function splitmix64(seed: bigint): bigint {
  let z = (seed + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/** The id's UTF-8 bytes folded into a 64-bit seed (FNV-1a), then mixed by splitmix64. */
export function displayNameFor(id: string): string {
  let seed = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(id)) seed = ((seed ^ BigInt(byte)) * 0x100000001b3n) & MASK;
  return DISPLAY_NAMES[Number(splitmix64(seed) % BigInt(DISPLAY_NAMES.length))]!;
}
