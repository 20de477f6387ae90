import { fitInside, SCREEN_BOX, THUMBNAIL_BOX } from '@kadr/contract';
import sharp from 'sharp';
import { SHARP_INPUT } from '../../../lib/images.ts';
import { frameStats } from '../tagger/image-stats.ts';

/**
 * The pixel work of every image path: decoding, resizing, encoding. It runs only in the image process
 * (image-worker.ts); the server calls it through image.ts. Each function answers what the server stores.
 */

/** Longest side of the feed variant and of the thumbnail. */
export const FEED_IMAGE_SIDE = 1440;
export const THUMBNAIL_SIDE = THUMBNAIL_BOX.width;
/**
 * The box of a post photo's screen variant, what the feed shows: a phone's screen at its density, and the
 * desktop feed's 720 px column (SCREEN_BOX in the contract, which the web sizes its images by). The feed file
 * (FEED_IMAGE_SIDE) stays for a full-size view.
 */
export const SCREEN_IMAGE_WIDTH = SCREEN_BOX.width;
export const SCREEN_IMAGE_HEIGHT = SCREEN_BOX.height;

export interface ProcessedImage {
  /** webp, orientation applied, metadata (EXIF, GPS) dropped. */
  feed: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
}

/** A post's photo: the feed variant, its thumbnail and its screen variant (`screenSize` of the feed's size). */
export interface PostImage extends ProcessedImage {
  screen: Buffer;
}

/**
 * The screen variant's size: the feed variant's `width`×`height` fitted inside SCREEN_IMAGE_WIDTH×
 * SCREEN_IMAGE_HEIGHT, never enlarged. The web computes the same from a post file's size
 * (apps/web/src/shared/lib/post-image.ts), so the variant is resized to exactly this box rather than by sharp's
 * `fit: 'inside'`, whose libvips rounding lands a pixel short on some sizes (1440×941 gives 720×470, not 471).
 */
export function screenSize(width: number, height: number): { width: number; height: number } {
  return fitInside(width, height, SCREEN_BOX);
}

/** A picture, oriented (`sharp(input).rotate()`) → the feed variant and its thumbnail. */
async function feedAndThumbnail(base: ReturnType<typeof sharp>): Promise<ProcessedImage> {
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

// sharp keeps no metadata unless asked (withMetadata), so EXIF is stripped; rotate() applies its orientation first.
const oriented = (input: string | Uint8Array) => sharp(input, SHARP_INPUT).rotate();

/** An uploaded image (a path or the bytes) → the feed variant and a thumbnail, both webp without metadata. */
export function feedVariants(input: string | Uint8Array): Promise<ProcessedImage> {
  return feedAndThumbnail(oriented(input));
}

/** A post's photo → the feed variant, a thumbnail and the screen variant, all webp without metadata. */
export async function postVariants(input: string | Uint8Array): Promise<PostImage> {
  const base = oriented(input);
  const image = await feedAndThumbnail(base);
  // From the uploaded picture, not from the feed's webp (one lossy step). The box has the feed's proportions
  // to within a pixel's rounding, so `fill` stretches nothing visibly.
  const box = screenSize(image.width, image.height);
  const screen = await base
    .clone()
    .resize(box.width, box.height, { fit: 'fill' })
    .webp({ quality: 80 })
    .toBuffer();
  return { ...image, screen };
}

/** 9:16 output box of a story: the image is cut to it (centre), at most 1080×1920. */
export const STORY_W = 1080;
export const STORY_H = 1920;
export const STORY_ASPECT = 9 / 16;

export interface StoryImage {
  image: Buffer;
  thumbnail: Buffer;
  /** What a phone's viewer shows: exactly `storyScreenSize` (720×1280); null for a story no larger than that. */
  screen: Buffer | null;
  width: number;
  height: number;
}

/**
 * The size of a story picture's screen variant, or null when it gets none. Stories do not store their size, so
 * the web names the variant's size from the story frame alone (apps/web/src/shared/lib/post-image.ts
 * `storyPicture`): the 9:16 frame (STORY_W×STORY_H) fitted inside SCREEN_IMAGE_WIDTH×SCREEN_IMAGE_HEIGHT, which
 * is exactly 720×1280, whatever the story picture's own size. Never enlarged: a story picture no larger than
 * that box (a small upload) gets no variant, and its own file, already screen-sized, is what the viewer shows.
 * Every story cut from a phone's photo is 1080×1920 and gets one.
 */
export function storyScreenSize(width: number, height: number): { width: number; height: number } | null {
  if (width <= SCREEN_IMAGE_WIDTH && height <= SCREEN_IMAGE_HEIGHT) return null;
  return screenSize(STORY_W, STORY_H);
}

/**
 * An image → a 9:16 webp without metadata (EXIF, GPS), its thumbnail and, for a story larger than the screen
 * box, its screen variant (`storyScreenSize`).
 */
export async function storyVariants(input: string): Promise<StoryImage> {
  const base = sharp(input, SHARP_INPUT).rotate();
  const meta = await sharp(await base.clone().toBuffer()).metadata();
  const srcW = meta.width ?? STORY_W;
  const srcH = meta.height ?? STORY_H;
  // The largest 9:16 box inside the picture, never enlarged past the source or 1080×1920.
  const height = Math.max(16, Math.min(STORY_H, srcH, Math.floor(srcW / STORY_ASPECT)));
  const width = Math.max(9, Math.round(height * STORY_ASPECT));
  const image = await base
    .clone()
    .resize(width, height, { fit: 'cover', position: 'centre' })
    .webp({ quality: 90 })
    .toBuffer();
  const thumbnail = await sharp(image).resize(270, 480, { fit: 'cover' }).webp({ quality: 78 }).toBuffer();
  // From the upload, not from the story's webp (one lossy step): the same centred cut, since `cover` takes the
  // largest box of the output's proportions, and exactly the size the web names (`cover` never rounds it).
  const box = storyScreenSize(width, height);
  const screen = box
    ? await base
        .clone()
        .resize(box.width, box.height, { fit: 'cover', position: 'centre' })
        .webp({ quality: 80 })
        .toBuffer()
    : null;
  return { image, thumbnail, screen, width, height };
}

/** A video's poster (webp, cut to the video's size) and its thumbnail, from a frame or the uploaded cover. */
export async function posterVariants(
  source: string | Uint8Array,
  width: number,
  height: number,
): Promise<{ poster: Buffer; thumbnail: Buffer }> {
  const poster = await sharp(source, SHARP_INPUT)
    .rotate()
    .resize(width, height, { fit: 'cover' })
    .webp({ quality: 82 })
    .toBuffer();
  const thumbnail = await sharp(poster)
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside' })
    .webp({ quality: 78 })
    .toBuffer();
  return { poster, thumbnail };
}

/** Mean of a frame's colour channels, 0–255. */
export async function meanColour(frame: Uint8Array): Promise<number> {
  const { channels } = await sharp(frame, SHARP_INPUT).stats();
  const colour = channels.slice(0, 3);
  return colour.reduce((sum, c) => sum + c.mean, 0) / colour.length;
}

/** A square webp of the given side (avatars); orientation applied, metadata (EXIF) dropped. */
export function squareVariant(data: Uint8Array, side: number): Promise<Buffer> {
  return sharp(data, SHARP_INPUT)
    .rotate()
    .resize(side, side, { fit: 'cover' })
    .webp({ quality: 86 })
    .toBuffer();
}

/** A frame as a JPEG at most `side` on its longest side (what a remote vision model is sent). */
export function jpegVariant(frame: Uint8Array, side: number): Promise<Buffer> {
  return sharp(frame).resize(side, side, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
}

export { frameStats };
