import sharp from 'sharp';
import { serveMediaCalls } from '../../../lib/media-process.ts';
import { DETECT_SIDE, humanModel, type RawFrame } from './human-model.ts';

/**
 * The labeler's process: the detector's WASM inference runs here, and so does the sharp
 * work of shrinking each frame for it. Not a worker thread of the server: a WASM memory never shrinks, and
 * libvips' and tfjs' native allocations fragment the allocator's arenas, so in the server's process both only
 * ever added to its RSS. Here they stay out of it, and human-labeler.ts replaces this process after a number of
 * jobs or when its RSS passes a cap, which gives all of that memory back. It runs as every media process does
 * (lib/media-process.ts): at the media priority, one request at a time, gone with the server.
 */
export type LabelerCall =
  | { op: 'detect'; frames: Uint8Array[]; zoomOut?: boolean }
  | { op: 'warm' }
  | { op: 'memory' }
  | { op: 'info' };

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

if (process.env.KADR_LABELER === '1') {
  // One inference at a time (serveMediaCalls answers in order): tfjs's WASM backend holds one scope stack.
  serveMediaCalls<LabelerCall & { id: number }>(async (call) => {
    if (call.op === 'detect')
      return model.detect(await Promise.all(call.frames.map(rawFrame)), { zoomOut: call.zoomOut });
    if (call.op === 'warm') return model.warm();
    if (call.op === 'memory') return model.memory();
    throw new Error(`unknown call ${call.op}`);
  });
  // Loaded once the process runs at the media priority, so the models load on the cores left free too.
  const model = humanModel();
}
