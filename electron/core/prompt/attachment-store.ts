/**
 * Images attached to prompts, kept as files under `COVE_HOME/attachments/<session>/`, named by
 * the hash of their content. The conversation sent to the API must carry the image itself, but
 * events only name it: a transcript redrawn from hundreds of events then does not drag megabytes
 * of base64 through the store, the socket and the renderer for every row; the picture is fetched
 * once, by id, when it is shown.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageMediaType } from '../tools/image-file';

const EXTENSION: Record<ImageMediaType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const ID = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;
const SESSION = /^[A-Za-z0-9_.:-]+$/;

export function attachmentDir(coveHome: string, sessionId: string): string {
  if (!SESSION.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
  return join(coveHome, 'attachments', sessionId);
}

export function saveAttachment(coveHome: string, sessionId: string, mediaType: ImageMediaType, data: Buffer): string {
  const id = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${EXTENSION[mediaType]}`;
  const dir = attachmentDir(coveHome, sessionId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, id), data, { mode: 0o600 });
  return id;
}

/** Throws an Error naming the attachment when it is not one of this session's. */
export function loadAttachment(coveHome: string, sessionId: string, attachmentId: string): { mediaType: ImageMediaType; data: Buffer } {
  if (!ID.test(attachmentId)) throw new Error(`not an attachment id: ${attachmentId}`);
  const extension = attachmentId.split('.')[1]!;
  const mediaType = Object.entries(EXTENSION).find(([, value]) => value === extension)![0] as ImageMediaType;
  try {
    return { mediaType, data: readFileSync(join(attachmentDir(coveHome, sessionId), attachmentId)) };
  } catch {
    throw new Error(`session ${sessionId} has no attachment ${attachmentId}`);
  }
}
