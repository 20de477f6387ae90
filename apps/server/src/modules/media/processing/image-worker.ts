import os from 'node:os';
import { serveMediaCalls } from '../../../lib/media-process.ts';
import {
  feedVariants,
  frameStats,
  jpegVariant,
  meanColour,
  posterVariants,
  postVariants,
  squareVariant,
  storyVariants,
} from './image-ops.ts';

/**
 * The image process (ADR 0017): every decode, resize and encode of a user's picture runs here, never in the
 * server's process. Under `SCHED_IDLE` in the idle cgroup a photo runs only on a core that neither the
 * event loop nor PostgreSQL wants, and libvips' allocations stay out of the server's RSS. image.ts starts it
 * and answers for it.
 */
export type ImageCall =
  | { op: 'feed'; input: string | Uint8Array }
  | { op: 'post'; input: string | Uint8Array }
  | { op: 'story'; input: string }
  | { op: 'poster'; source: string | Uint8Array; width: number; height: number }
  | { op: 'mean'; frame: Uint8Array }
  | { op: 'stats'; frame: Uint8Array }
  | { op: 'square'; data: Uint8Array; side: number }
  | { op: 'jpeg'; frame: Uint8Array; side: number }
  | { op: 'info' };

function handle(call: ImageCall): Promise<unknown> {
  switch (call.op) {
    case 'feed':
      return feedVariants(call.input);
    case 'post':
      return postVariants(call.input);
    case 'story':
      return storyVariants(call.input);
    case 'poster':
      return posterVariants(call.source, call.width, call.height);
    case 'mean':
      return meanColour(call.frame);
    case 'stats':
      return frameStats(Buffer.from(call.frame.buffer, call.frame.byteOffset, call.frame.byteLength));
    case 'square':
      return squareVariant(call.data, call.side);
    case 'jpeg':
      return jpegVariant(call.frame, call.side);
    case 'info':
      throw new Error('info is answered by serveMediaCalls');
  }
}

// As many images at once as the machine has cores, as the server's own threads could before: an avatar does
// not wait behind a burst of chat photos, and one image's memory is still one libvips thread's.
if (process.env.KADR_IMAGE_PROCESS === '1') {
  serveMediaCalls<ImageCall & { id: number }>(handle, { parallel: os.availableParallelism() });
}
