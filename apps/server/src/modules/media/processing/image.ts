import sharp from 'sharp';
import { SHARP_INPUT } from '../../../lib/images.ts';

/** Longest side of the feed variant and of the thumbnail. */
export const FEED_IMAGE_SIDE = 1440;
export const THUMBNAIL_SIDE = 360;

export interface ProcessedImage {
  /** webp, orientation applied, metadata (EXIF, GPS) dropped. */
  feed: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

/**
 * An uploaded image → the feed variant and a thumbnail, both webp without metadata.
 * Reusable for any attachment (feed posts, chat media). Accepts a path or the bytes.
 */
export async function processImage(input: string | Buffer): Promise<ProcessedImage> {
  // sharp keeps no metadata unless asked (withMetadata), so EXIF is stripped; rotate() applies its orientation first.
  const base = sharp(input, SHARP_INPUT).rotate();
  const feed = await base
    .clone()
    .resize(FEED_IMAGE_SIDE, FEED_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 86 })
    .toBuffer({ resolveWithObject: true });
  const thumbnail = await sharp(feed.data)
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer();
  return { feed: feed.data, thumbnail, width: feed.info.width, height: feed.info.height };
}
