import sharp from 'sharp';
import { lowerProcessPriority, mediaScheduling } from '../../../lib/thread-priority.ts';
import { MEDIA_NICE } from '../processing/media-spawner.ts';
import { DETECT_SIDE, humanModel, type RawFrame } from './human-model.ts';

/**
 * The labeler's process (issue 17 item 12): the detector's WASM inference runs here, and so does the sharp
 * work of shrinking each frame for it. Not a worker thread of the server: a WASM memory never shrinks, and
 * libvips' and tfjs' native allocations fragment the allocator's arenas, so in the server's process both only
 * ever added to its RSS. Here they stay out of it, and human-labeler.ts replaces this process after a number of
 * jobs or when its RSS passes a cap, which gives all of that memory back.
 *
 * Requests are `{ id, op, frames? }` (frames: encoded images); each answers `{ id, result }` or
 * `{ id, error }`, in order. When the server goes (even `kill -9`) the IPC channel closes and this exits.
 */
export type LabelerCall = { op: 'detect'; frames: Uint8Array[] } | { op: 'memory' } | { op: 'info' };
export type LabelerRequest = LabelerCall & { id: number };

export type LabelerReply =
  | { id: number; result: unknown; rss: number }
  | { id: number; error: { message: string } };

/**
 * What `info` answers: who runs the detector, at which niceness and scheduling policy (null off Linux), with
 * how much memory.
 */
export interface LabelerInfo {
  pid: number;
  nice: number | null;
  policy: number | null;
  rss: number;
}

/** The detector's input: the frame without alpha, at most DETECT_SIDE on its longest side, packed RGB. */
async function rawFrame(frame: Uint8Array): Promise<RawFrame> {
  const { data, info } = await sharp(frame)
    .removeAlpha()
    .resize(DETECT_SIDE, DETECT_SIDE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

if (process.env.KADR_LABELER === '1' && process.send) {
  const send = process.send.bind(process);
  // The whole process runs on the cores the server's event loop leaves free, as ffmpeg does.
  const { nice, policy } = lowerProcessPriority(MEDIA_NICE, mediaScheduling());
  // One image at a time on one libvips thread, and no operation cache: this process holds no more than a frame.
  sharp.cache(false);
  sharp.concurrency(1);
  const model = humanModel();
  // One inference at a time: tfjs's WASM backend is single-threaded and holds one scope stack.
  let chain: Promise<unknown> = Promise.resolve();
  process.on('message', (request: LabelerRequest) => {
    chain = chain.then(async () => {
      try {
        const result =
          request.op === 'detect'
            ? await model.detect(await Promise.all(request.frames.map(rawFrame)))
            : request.op === 'memory'
              ? await model.memory()
              : ({ pid: process.pid, nice, policy, rss: process.memoryUsage.rss() } satisfies LabelerInfo);
        send({ id: request.id, result, rss: process.memoryUsage.rss() } satisfies LabelerReply);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        send({ id: request.id, error: { message } } satisfies LabelerReply);
      }
    });
  });
  // The server is gone: nothing of ours keeps running.
  process.on('disconnect', () => process.exit(0));
}
