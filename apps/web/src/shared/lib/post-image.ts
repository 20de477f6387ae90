import type { Post, PostFile } from '@kadr/contract';

/** An image a post shows, with its intrinsic size (every `<img>` carries width and height: no layout shift). */
export interface PostImage {
  src: string;
  width: number;
  height: number;
}

/** Side of the thumbnail the pipeline makes (server: processing/image-ops.ts THUMBNAIL_SIDE). */
const THUMBNAIL_SIDE = 360;

/** A box of `width`×`height` scaled to fit `side` (never enlarged), as sharp's `fit: inside` does. */
function inside(width: number, height: number, side: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function sized(file: PostFile, src: string, side: number | null): PostImage {
  const width = file.width ?? 9;
  const height = file.height ?? 16;
  return { src, ...(side ? inside(width, height, side) : { width, height }) };
}

/**
 * The picture of a post's tile in a grid (home, profile, my actions): a photo's thumbnail, a video's
 * poster. Also what the boot script preloads for the first tile (app/boot/boot-script.ts), so both name
 * the same URL.
 */
export function tileImage(post: Pick<Post, 'files'>): PostImage | null {
  const file = post.files[0];
  if (!file) return null;
  if (file.file_type === 'image') {
    if (file.thumbnail_url) return sized(file, file.thumbnail_url, THUMBNAIL_SIDE);
    return file.file_url ? sized(file, file.file_url, null) : null;
  }
  return file.thumbnail_url ? sized(file, file.thumbnail_url, null) : null;
}

/**
 * A grid tile's picture as the reader sees it: none for a post carrying a tag the reader hid (the home
 * grid and the frame the boot script fills show a notice there, never the picture).
 */
export function shownTileImage(post: Pick<Post, 'files' | 'is_filtered'>): PostImage | null {
  return post.is_filtered ? null : tileImage(post);
}

/** The picture the feed shows first for a post: a photo at feed size, a video's poster. */
export function feedImage(post: Pick<Post, 'files'>): PostImage | null {
  const file = post.files[0];
  if (!file) return null;
  if (file.file_type === 'image') return file.file_url ? sized(file, file.file_url, null) : null;
  return file.thumbnail_url ? sized(file, file.thumbnail_url, null) : null;
}

/** Tiles a grid's first screen shows (three rows of three on a phone): fetched at once, never lazily. */
export const EAGER_TILES = 9;

/**
 * The `<img>` attributes of the tile at `index`: sized, the first screen's tiles eager and the
 * first one — the page's largest paint — fetched before anything else, the rest lazy.
 */
export function tileImgProps(image: PostImage, index: number) {
  return {
    src: image.src,
    width: image.width,
    height: image.height,
    loading: index < EAGER_TILES ? ('eager' as const) : ('lazy' as const),
    fetchPriority: index === 0 ? ('high' as const) : ('auto' as const),
  };
}

/** A story's frame: the pipeline cuts every story to 9:16, at most 1080×1920 (server: image-ops.ts). */
export const STORY_FRAME = { width: 1080, height: 1920 } as const;
