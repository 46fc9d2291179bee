/**
 * Images a person attaches to a prompt (pasted, dropped, `cove run --image`), made to fit the
 * Messages API's documented limits: a base64 image of at most 5 MB, and no side over 2000 px
 * once a conversation holds many images (8000 px for one). Larger pictures are downscaled,
 * keeping their format where it can hold them; what cannot be decoded or is not PNG, JPEG, GIF
 * or WebP is refused with the reason. sharp does the decoding and scaling: libvips behind a
 * prebuilt N-API binary (so one build serves Node and Electron), much faster than pure-JS codecs
 * on a 4K screenshot.
 */
import type { Sharp } from 'sharp';
import { imageTypeOfBytes, type ImageMediaType } from '../tools/image-file';

/** The API's cap is on the base64 text; 3/4 of it is the most raw bytes that fit. */
export const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
export const MAX_IMAGE_BYTES = (MAX_IMAGE_BASE64 * 3) / 4;
/** Fits the many-image limit too, so a long session of screenshots never starts failing. */
export const MAX_IMAGE_SIDE = 2000;
/** What is read at all: a larger file is not a screenshot, and decoding it costs seconds. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;
export const MAX_IMAGES_PER_PROMPT = 20;

export class ImageRefused extends Error {}

export interface PreparedImage {
  name: string;
  mediaType: ImageMediaType;
  data: Buffer;
  width: number;
  height: number;
  resized: boolean;
}

export async function prepareImage(name: string, input: Buffer): Promise<PreparedImage> {
  if (input.length > MAX_INPUT_BYTES) throw new ImageRefused(`${name}: ${megabytes(input.length)}, over the ${megabytes(MAX_INPUT_BYTES)} Cove reads for an image`);
  const mediaType = imageTypeOfBytes(input.subarray(0, 12));
  if (!mediaType) throw new ImageRefused(`${name}: not a PNG, JPEG, GIF or WebP image (the formats the API accepts)`);
  const sharp = await loadSharp();
  let metadata;
  try {
    metadata = await sharp(input).metadata();
  } catch (error) {
    throw new ImageRefused(`${name}: the ${mediaType} image cannot be decoded (${(error as Error).message})`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width === 0 || height === 0) throw new ImageRefused(`${name}: the image has no size`);
  if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && input.length <= MAX_IMAGE_BYTES) {
    return { name, mediaType, data: input, width, height, resized: false };
  }
  return downscale(name, input, mediaType, width, height);
}

async function downscale(name: string, input: Buffer, mediaType: ImageMediaType, width: number, height: number): Promise<PreparedImage> {
  const sharp = await loadSharp();
  // Each try is smaller; a photo that stays too large as PNG is sent as JPEG.
  for (const side of [MAX_IMAGE_SIDE, 1568, 1024, 768]) {
    const scale = Math.min(1, side / Math.max(width, height));
    const target = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
    for (const format of mediaType === 'image/jpeg' ? (['image/jpeg'] as const) : ([mediaType, 'image/jpeg'] as const)) {
      const data = await encode(sharp(input).resize(target.width, target.height, { fit: 'inside' }), format);
      if (data.length <= MAX_IMAGE_BYTES) {
        const size = await sharp(data).metadata();
        return { name, mediaType: format, data, width: size.width ?? target.width, height: size.height ?? target.height, resized: true };
      }
    }
  }
  throw new ImageRefused(`${name}: still over ${megabytes(MAX_IMAGE_BYTES)} after scaling it down to 768 px; crop it or save it smaller`);
}

/** libvips loads with the first image: most runs have none, and loading it is a twentieth of `cove run`'s start-up. */
async function loadSharp() {
  return (await import('sharp')).default;
}

function encode(image: Sharp, format: ImageMediaType): Promise<Buffer> {
  switch (format) {
    case 'image/png':
      return image.png({ compressionLevel: 9 }).toBuffer();
    case 'image/gif':
      return image.gif().toBuffer();
    case 'image/webp':
      return image.webp({ quality: 85 }).toBuffer();
    default:
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
