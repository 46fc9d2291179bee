/**
 * Project instructions: AGENTS.md (and CLAUDE.md, which many projects already have) at each
 * workspace root go into the system prompt, so the agent follows the project's own rules.
 * Each file is capped, and so is their sum, so a huge file cannot crowd out the conversation.
 */
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
export const MAX_FILE_BYTES = 32 * 1024;
export const MAX_TOTAL_BYTES = 64 * 1024;

export interface InstructionFile {
  path: string;
  bytes: number;
  truncated: boolean;
  text: string;
}

function readHead(path: string, limit: number): { text: string; bytes: number } | null {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return null;
    size = stats.size;
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(Math.min(size, limit));
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    // Never end inside a multi-byte character.
    return {
      text: buffer
        .subarray(0, read)
        .toString('utf8')
        .replace(/\uFFFD$/, ''),
      bytes: size,
    };
  } finally {
    closeSync(fd);
  }
}

export function loadInstructions(roots: readonly string[]): InstructionFile[] {
  const files: InstructionFile[] = [];
  let budget = MAX_TOTAL_BYTES;
  for (const root of roots) {
    for (const name of INSTRUCTION_FILES) {
      if (budget <= 0) return files;
      const path = join(root, name);
      const head = readHead(path, Math.min(MAX_FILE_BYTES, budget));
      if (!head || !head.text.trim()) continue;
      budget -= Buffer.byteLength(head.text);
      files.push({ path, bytes: head.bytes, truncated: head.bytes > Buffer.byteLength(head.text), text: head.text.trim() });
    }
  }
  return files;
}

export function instructionsSection(files: readonly InstructionFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map(
    (file) => `<instructions file="${file.path}">\n${file.text}${file.truncated ? `\n[… cut: the file has ${file.bytes} bytes; read it with read_file for the rest]` : ''}\n</instructions>`,
  );
  return `The project gives these instructions; follow them unless the person says otherwise:\n\n${parts.join('\n\n')}`;
}
