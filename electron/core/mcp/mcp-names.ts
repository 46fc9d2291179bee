/**
 * The names MCP tools are offered under: `mcp__<server>__<tool>`, only [A-Za-z0-9_-] and at
 * most 64 characters, as the Anthropic API requires. A name that had to be changed and would
 * collide, or that is too long, ends in `_` and a short hash of the original, so it is stable
 * from run to run whatever order the server lists its tools in.
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 6;

export function toolPrefix(server: string): string {
  return `mcp__${server}__`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

export function sanitizeToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

function hashed(prefix: string, sanitized: string, original: string): string {
  return withHashSuffix(`${prefix}${sanitized}`, original);
}

/** `name`, cut to fit, then `_` and a hash of `seed`. */
export function withHashSuffix(name: string, seed: string): string {
  const suffix = `_${shortHash(seed)}`;
  return name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
}

/**
 * Maps each original tool name of one server to the name it is offered under. `taken` holds
 * names already used (other servers' tools) and receives the new ones.
 */
export function assignToolNames(server: string, originals: readonly string[], taken: Set<string> = new Set()): Map<string, string> {
  const prefix = toolPrefix(server);
  const assigned = new Map<string, string>();
  // Names that need no change claim theirs first, so a renamed tool never displaces them.
  const ordered = [...new Set(originals)].sort((a, b) => {
    const changedA = sanitizeToolName(a) !== a ? 1 : 0;
    const changedB = sanitizeToolName(b) !== b ? 1 : 0;
    return changedA - changedB || (a < b ? -1 : a > b ? 1 : 0);
  });
  for (const original of ordered) {
    const sanitized = sanitizeToolName(original);
    let name = `${prefix}${sanitized}`;
    if (name.length > MAX_TOOL_NAME_LENGTH || taken.has(name)) name = hashed(prefix, sanitized, original);
    // Two originals whose hashes share a prefix are vanishingly rare; the server name breaks the tie.
    if (taken.has(name)) name = hashed(prefix, sanitized, `${server}/${original}`);
    taken.add(name);
    assigned.set(original, name);
  }
  return assigned;
}
