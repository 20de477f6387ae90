import { FieldText } from '@kadr/contract';
import sharp from 'sharp';
import { errors } from '../../../lib/errors.ts';
import { type MediaProcessInfo, mediaProcess } from '../../../lib/media-process.ts';
import type { FrameStats } from '../tagger/image-stats.ts';
import type { PostImage, ProcessedImage, StoryImage } from './image-ops.ts';
import type { ImageCall } from './image-worker.ts';

export {
  FEED_IMAGE_SIDE,
  type PostImage,
  type ProcessedImage,
  SCREEN_IMAGE_HEIGHT,
  SCREEN_IMAGE_WIDTH,
  STORY_ASPECT,
  screenSize,
  storyScreenSize,
  THUMBNAIL_SIDE,
} from './image-ops.ts';

/**
 * sharp in the server's own process reads headers only (what an upload is, its size): every pixel is decoded
 * in the image process below. No libvips operation cache (every upload is new bytes) and one libvips thread.
 */
export function configureSharp() {
  sharp.cache(false);
  sharp.concurrency(1);
}

/**
 * The image process's bounds. It holds ~60 MB of Node and sharp plus the images in work (one per core, each up
 * to a 50 Mpx decode); the allocator's arenas never shrink in place, so it is replaced after 1000 images or
 * once its RSS passes 512 MiB, after the calls in flight. A new one costs a fork and ~0.1 s.
 */
export const IMAGE_PROCESS_MAX_JOBS = 1000;
export const IMAGE_PROCESS_MAX_RSS = 512 * 1024 * 1024;

const images = mediaProcess<ImageCall>({
  name: 'image',
  entry: new URL('./image-worker.ts', import.meta.url),
  flag: 'KADR_IMAGE_PROCESS',
  counts: (call) => call.op !== 'info',
  maxJobs: IMAGE_PROCESS_MAX_JOBS,
  maxRss: IMAGE_PROCESS_MAX_RSS,
});

/**
 * An uploaded image (a path or the bytes) → the feed variant and a thumbnail, both webp without metadata.
 * Reusable for any attachment (feed posts, chat media). A decoder's refusal rejects with sharp's message.
 */
export const processImage = (input: string | Buffer) => images.call<ProcessedImage>({ op: 'feed', input });

/** A post's photo → the feed variant, a thumbnail and the screen variant the feed shows (image-ops.ts). */
export const processPostImage = (input: string | Buffer) => images.call<PostImage>({ op: 'post', input });

/** A story's image → a 9:16 webp without metadata, its thumbnail and its screen variant (image-ops.ts). */
export const storyImage = (input: string) => images.call<StoryImage>({ op: 'story', input });

/** A video's poster (webp, cut to the video's size) and its thumbnail, from a frame or the uploaded cover. */
export const videoPoster = (source: string | Buffer, width: number, height: number) =>
  images.call<{ poster: Buffer; thumbnail: Buffer }>({ op: 'poster', source, width, height });

/** Mean of a frame's colour channels, 0–255. */
export const meanColour = (frame: Buffer) => images.call<number>({ op: 'mean', frame });

/** Pixel statistics of one frame (tagger/image-stats.ts), computed in the image process. */
export const frameStats = (frame: Buffer) => images.call<FrameStats>({ op: 'stats', frame });

/** A frame as a JPEG at most `side` on its longest side. */
export const jpegFrame = (frame: Buffer, side: number) => images.call<Buffer>({ op: 'jpeg', frame, side });

/** A square webp of the given side; orientation applied, metadata (EXIF) dropped. Undecodable bytes are a 400. */
export async function squareWebp(data: Buffer, side: number): Promise<Buffer> {
  try {
    return await images.call<Buffer>({ op: 'square', data, side });
  } catch {
    throw errors.unsupportedMedia(FieldText.imageRequired);
  }
}

/** Who runs the pixel work: the image process's pid, niceness, policy and RSS (it is started if it is not). */
export const imageProcessInfo = () => images.call<MediaProcessInfo>({ op: 'info' });

/** Stops the image process; the next call starts a new one. */
export const closeImageProcess = () => images.close();
