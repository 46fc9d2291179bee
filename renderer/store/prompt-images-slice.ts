/**
 * Images pasted or dropped into a session's composer, waiting for the next prompt. Each is
 * uploaded at once (`session:addImage`), so main checks and downscales it while the person
 * types and the send carries only ids; the preview stays in memory, never in sessionStorage.
 */
import type { StateCreator } from 'zustand';
import type { ImageAttachment } from '../../shared/contract';
import { call } from '../transport/client';
import type { CoveState } from './types';

/** The contract's IMAGE_UPLOAD_CHARS of base64 (one socket frame), as raw bytes. */
const MAX_UPLOAD_BYTES = Math.floor((7_500_000 * 3) / 4);
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface PendingImage extends ImageAttachment {
  /** A data: URL of what was uploaded, for the thumbnail. */
  preview: string;
}

export interface PromptImagesSlice {
  promptImages: Record<string, PendingImage[]>;
  addPromptImages(sessionId: string, files: readonly File[]): Promise<void>;
  removePromptImage(sessionId: string, attachmentId: string): void;
  clearPromptImages(sessionId: string): void;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

export function isImageFile(file: File): boolean {
  return IMAGE_TYPES.includes(file.type);
}

export const createPromptImagesSlice: StateCreator<CoveState, [], [], PromptImagesSlice> = (set, get) => ({
  promptImages: {},

  async addPromptImages(sessionId, files) {
    for (const file of files) {
      const name = file.name || `pasted image.${file.type.split('/')[1] ?? 'png'}`;
      if (!isImageFile(file)) {
        get().notify(`${name} is not a PNG, JPEG, GIF or WebP image`);
        continue;
      }
      if (file.size > MAX_UPLOAD_BYTES) {
        get().notify(
          `${name} is ${(file.size / 1048576).toFixed(1)} MB; the composer takes images up to ${(MAX_UPLOAD_BYTES / 1048576).toFixed(1)} MB (save it smaller, or use cove run --image)`,
        );
        continue;
      }
      let preview: string;
      try {
        preview = await readDataUrl(file);
      } catch (error) {
        get().notify(`${name} could not be read: ${(error as Error).message}`);
        continue;
      }
      const response = await call('session:addImage', { sessionId, name, data: preview.slice(preview.indexOf(',') + 1) });
      if (!response.ok) {
        get().notify(response.error.message);
        continue;
      }
      const image: PendingImage = { ...response.value, preview };
      set((state) => ({
        promptImages: { ...state.promptImages, [sessionId]: [...(state.promptImages[sessionId] ?? []).filter((other) => other.attachmentId !== image.attachmentId), image] },
      }));
      if (image.resized) get().notify(`${name} was scaled down to ${image.width}×${image.height} to fit the API's image limits`, 'info');
    }
  },

  removePromptImage(sessionId, attachmentId) {
    set((state) => ({ promptImages: { ...state.promptImages, [sessionId]: (state.promptImages[sessionId] ?? []).filter((image) => image.attachmentId !== attachmentId) } }));
  },

  clearPromptImages(sessionId) {
    set((state) => {
      const promptImages = { ...state.promptImages };
      delete promptImages[sessionId];
      return { promptImages };
    });
  },
});
