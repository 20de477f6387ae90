import { ErrorText } from '@kadr/contract';
import sharp, { type Metadata } from 'sharp';
import { errors } from './errors.ts';

const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);

/** Checks by content that the bytes are an image we accept; returns its size. */
export async function inspectImage(data: Buffer): Promise<{ format: string; width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(data).metadata();
  } catch {
    throw errors.unsupportedMedia(ErrorText.imageRequired);
  }
  if (!meta.format || !IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) {
    throw errors.unsupportedMedia(ErrorText.imageRequired);
  }
  return { format: meta.format, width: meta.width, height: meta.height };
}

/** A square webp of the given side; orientation applied, metadata (EXIF) dropped. */
export function squareWebp(data: Buffer, side: number): Promise<Buffer> {
  return sharp(data).rotate().resize(side, side, { fit: 'cover' }).webp({ quality: 86 }).toBuffer();
}
