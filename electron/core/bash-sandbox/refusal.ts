/**
 * A write or a connection the sandbox refused looks to the model like any other error
 * ("Read-only file system", "Connection refused"), and it would try again another way. When the
 * output shows one that the policy explains, a short note says it was the sandbox and which
 * setting would allow it, so the model can tell the person instead.
 */
import { isAbsolute, resolve } from 'node:path';
import { isInside, writeAllowed, type SandboxPolicy } from './policy';

/**
 * How each sandbox refuses a write: bubblewrap's read-only mounts give EROFS (and EBUSY for a
 * mount point), Seatbelt gives EPERM. "Permission denied" is the file's own mode, and reads are
 * not sandboxed, so it is never read as the sandbox.
 */
const WRITE_REFUSED: Record<string, RegExp> = {
  bubblewrap: /Read-only file system|EROFS|Device or resource busy|EBUSY/,
  seatbelt: /Operation not permitted|EPERM/,
};
/** A held path, or a folder on the way to one, cannot be renamed or removed: it is a mount point. */
const BUSY = /Device or resource busy|EBUSY/;
const NETWORK_REFUSED =
  /Connection refused|ECONNREFUSED|Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|EAI_AGAIN|getaddrinfo|Name or service not known|No address associated/i;
/** `'path'`, `"path"`, `‘path’` or `tool: path: message`, the shapes coreutils and shells print. */
const QUOTED_PATH = /['"‘“`]([^'"’”`\n]+)['"’”`]/g;
const COLON_PATH = /(?:^|:\s)([^:\s'"][^:\n]*?):\s*(?:Read-only file system|Operation not permitted|Device or resource busy)/g;

/**
 * An absolute path inside a message ("could not write config file /repo/.git/config: …"); not at
 * the start of the line, where the program's own name stands ("/bin/bash: line 1: …").
 */
const ABSOLUTE_PATH = /\s(\/[^\s:'"’”`]+)/g;

function candidatePaths(line: string, cwd: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(QUOTED_PATH)) found.push(match[1]!);
  for (const match of line.matchAll(COLON_PATH)) found.push(match[1]!.trim());
  for (const match of line.matchAll(ABSOLUTE_PATH)) found.push(match[1]!);
  return found.filter((text) => text.includes('/') || text.startsWith('.') || /^[\w.-]+$/.test(text)).map((text) => (isAbsolute(text) ? resolve(text) : resolve(cwd, text)));
}

export function refusalNote(output: string, policy: SandboxPolicy, kind: 'bubblewrap' | 'seatbelt'): string | undefined {
  const refused = WRITE_REFUSED[kind] ?? WRITE_REFUSED.bubblewrap!;
  const networkRefused = !policy.networkOpen && NETWORK_REFUSED.test(output);
  // One pass over the whole text first: most output says neither, and testing each of its
  // thousands of lines against both patterns was a visible part of a big command's end.
  if (!networkRefused && !refused.test(output)) return undefined;
  const notes: string[] = [];
  const lines = output.split('\n');
  const blocked = new Set<string>();
  for (const line of lines.filter((candidate) => refused.test(candidate))) {
    for (const path of candidatePaths(line, policy.cwd)) {
      const held = BUSY.test(line) && policy.protectedPaths.some((entry) => isInside(entry.path, path));
      if (held || !writeAllowed(policy, path)) blocked.add(path);
    }
    if (/Read-only file system|EROFS/.test(line) && blocked.size === 0) blocked.add('');
  }
  if (blocked.size > 0) {
    const named = [...blocked].filter(Boolean);
    const isProtected = named.filter((path) => policy.protectedPaths.some((entry) => isInside(path, entry.path) || isInside(entry.path, path)));
    const what = named.length > 0 ? named.slice(0, 3).join(', ') : 'that path';
    let advice = `bash may write only inside the workspace roots, the temp folder and the paths listed in "sandbox.writable" of .cove/settings.json`;
    if (isProtected.length > 0) {
      const one = isProtected.length === 1;
      advice = `${isProtected.slice(0, 3).join(', ')} ${one ? 'is' : 'are'} protected (the files that decide what runs next: .cove, .claude, .mcp.json, .git/config, .git/hooks, .gitmodules, .npmrc, .envrc, shell start-up files) and read-only for bash in every mode; the file tools can change ${one ? 'it' : 'them'} after asking the person`;
    }
    notes.push(`[sandbox] The OS sandbox (${kind}) refused the write to ${what}: ${advice}. Do not retry another way; tell the person if the write is needed.`);
  }
  if (networkRefused) {
    const hosts = Array.isArray(policy.network) ? `the host list in "sandbox.network" is not supported yet, so the network stays off` : 'the network is off';
    notes.push(
      `[sandbox] The OS sandbox (${kind}) has no network for bash: ${hosts}. "sandbox": {"network": "all"} in .cove/settings.json would allow connections; tell the person if one is needed.`,
    );
  }
  return notes.length > 0 ? notes.join('\n') : undefined;
}
