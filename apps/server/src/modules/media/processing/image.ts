import sharp from 'sharp';
import { SHARP_INPUT } from '../../../lib/images.ts';
import { keepThreadsNiced } from '../../../lib/thread-priority.ts';
import { MEDIA_NICE } from './media-spawner.ts';

/** The name libvips gives its pool's threads, where all of sharp's pixel work runs. */
export const LIBVIPS_THREAD = 'libvips worker';
/** libuv's pool, where sharp runs each pipeline and whose threads start libvips' threads. */
export const LIBUV_THREAD = 'libuv-worker';

/**
 * sharp for a server that sees each picture once (docs/operations.md, "Memory"): no libvips operation cache
 * (every upload is new bytes, so it only held up to 50 MB of finished images) and one libvips thread per
 * image, so fewer threads touch the allocator — with glibc every thread that allocates may get an arena of
 * its own, and freed memory left in many arenas is what made RSS climb under steady uploads.
 *
 * libvips' threads run at the media niceness: decoding and encoding a photo is ~0.4–0.6 s of CPU, and at the
 * server's own priority it competed evenly with the event loop for a core. libvips ends a thread idle for some
 * seconds and starts a new one when work comes, and a new thread takes the niceness of the thread that starts
 * it: libuv's pool thread running sharp's pipeline. So the pool's threads run at that niceness too (they also
 * do the server's file reads and writes and compression, which then yield to the event loop as well);
 * renicing only libvips' threads every few seconds missed most photos (ADR 0017). Stop the returned handle when
 * the app closes.
 */
export function configureSharp() {
  sharp.cache(false);
  sharp.concurrency(1);
  return keepThreadsNiced([LIBVIPS_THREAD, LIBUV_THREAD], MEDIA_NICE);
}

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
