import type { Post, PostFile, Story } from '@kadr/contract';
import { fitInside, type PictureSize, SCREEN_BOX, THUMBNAIL_BOX } from '@kadr/contract/browser';

/** An image a post shows, with its intrinsic size (every `<img>` carries width and height: no layout shift). */
export interface PostImage {
  src: string;
  width: number;
  height: number;
}

/** A file's picture at the size the pipeline made it: fitted inside `box` (contract: picture-sizes.ts), or its own. */
function sized(file: PostFile, src: string, box: PictureSize | null): PostImage {
  const width = file.width ?? 9;
  const height = file.height ?? 16;
  return { src, ...(box ? fitInside(width, height, box) : { width, height }) };
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
    if (file.thumbnail_url) return sized(file, file.thumbnail_url, THUMBNAIL_BOX);
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

/**
 * A photo as the feed shows it: its screen variant (at most 720×1280) when the pipeline made one, else the
 * feed file (a post processed before the variant existed). One URL, no srcset: the boot script paints the same
 * picture the page shows (`feedImage`). The feed file (`file_url`) is for a full-size view.
 */
export function screenImage(file: PostFile): PostImage | null {
  if (file.screen_url) return sized(file, file.screen_url, SCREEN_BOX);
  return file.file_url ? sized(file, file.file_url, null) : null;
}

/**
 * The picture the feed shows first for a post: a photo's screen variant (`screenImage`), a video's poster.
 * Also what the boot script paints into the feed's frame (app/boot/boot-script.ts), so both name the same URL.
 */
export function feedImage(post: Pick<Post, 'files'>): PostImage | null {
  const file = post.files[0];
  if (!file) return null;
  if (file.file_type === 'image') return screenImage(file);
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

/**
 * A story photo's screen variant: the story frame fitted inside the screen box, 720×1280. A story carries no
 * size, so the pipeline makes the variant at exactly this size, or none for a story no larger than it
 * (server: image-ops.ts `storyScreenSize`).
 */
export const STORY_SCREEN = fitInside(STORY_FRAME.width, STORY_FRAME.height, SCREEN_BOX);

/**
 * The picture a story shows, as its viewer shows it (StoryViewer) and the boot script paints it for a story
 * opened by link (app/boot/boot-script.ts), so both name the same URL: a photo's screen variant (STORY_SCREEN)
 * when the pipeline made one, else its file at the story frame's size; a video's poster at the frame's size.
 * Null while there is nothing to show (a story still processing).
 */
export function storyPicture(
  story: Pick<Story, 'media_type' | 'file_url' | 'thumbnail_url' | 'screen_url'>,
): PostImage | null {
  if (story.media_type === 'video')
    return story.thumbnail_url ? { src: story.thumbnail_url, ...STORY_FRAME } : null;
  if (story.screen_url) return { src: story.screen_url, ...STORY_SCREEN };
  return story.file_url ? { src: story.file_url, ...STORY_FRAME } : null;
}
