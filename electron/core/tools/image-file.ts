/**
 * Images `read_file` returns as pictures. Both the extension and the file's magic bytes must
 * agree, so a `.png` that is really text is read as text and a PNG named `.txt` is binary.
 */
import { extname } from 'node:path';

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Larger images are refused: they cost many tokens and the API rejects very large ones. */
export const IMAGE_SIZE_LIMIT = 5 * 1024 * 1024;

const BY_EXTENSION: Record<string, ImageMediaType> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** How many head bytes `imageTypeOf` needs. */
export const MAGIC_BYTES = 12;

export function imageTypeByExtension(path: string): ImageMediaType | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

function startsWith(head: Uint8Array, bytes: number[], offset = 0): boolean {
  return bytes.every((byte, index) => head[offset + index] === byte);
}

/** The media type the head bytes announce, if any. */
export function imageTypeOfBytes(head: Uint8Array): ImageMediaType | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  // RIFF....WEBP
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}
