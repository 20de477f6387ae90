import { FieldText } from '@kadr/contract';
import sharp, { type Metadata } from 'sharp';
import { errors } from './errors.ts';

/**
 * Decoded pixels any image path accepts (sharp's `limitInputPixels`): 50 Mpx is a 8K photo; beyond it one
 * decode can take gigabytes. Every sharp() that reads user input passes this.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
export const SHARP_INPUT = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;

const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);

/** Checks by content that the bytes are an image we accept; returns its size. */
export async function inspectImage(data: Buffer): Promise<{ format: string; width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(data, SHARP_INPUT).metadata();
  } catch {
    throw errors.unsupportedMedia(FieldText.imageRequired);
  }
  if (!meta.format || !IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) {
    throw errors.unsupportedMedia(FieldText.imageRequired);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw errors.unsupportedMedia(FieldText.imageRequired);
  return { format: meta.format, width: meta.width, height: meta.height };
}
