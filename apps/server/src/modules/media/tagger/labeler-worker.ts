import fs from 'node:fs';
import os from 'node:os';
import { isMainThread, parentPort, threadId } from 'node:worker_threads';
import { MEDIA_NICE } from '../processing/media-spawner.ts';
import { humanModel } from './human-model.ts';

/**
 * The labeler's worker thread: the detector's WASM inference runs here, so the server's event loop never waits
 * for it. Requests are `{ id, op, frames? }`; each answers `{ id, result }` or `{ id, error }` in order.
 */
export type LabelerCall =
  | { op: 'detect'; frames: { data: Uint8Array; width: number; height: number }[] }
  | { op: 'memory' }
  | { op: 'thread' };
export type LabelerRequest = LabelerCall & { id: number };

export type LabelerReply = { id: number; result: unknown } | { id: number; error: { message: string } };

/**
 * On Linux a thread has a niceness of its own: the detector's thread yields the cores to the event loop when
 * both want them, as the media binaries do (media-spawner.ts). Elsewhere it keeps the process's priority.
 */
function lowerThreadPriority(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!(tid > 0) || tid === process.pid) return null;
    os.setPriority(tid, MEDIA_NICE);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const nice = lowerThreadPriority();
  const model = humanModel();
  // One inference at a time: tfjs's WASM backend is single-threaded and holds one scope stack.
  let chain: Promise<unknown> = Promise.resolve();
  port.on('message', (request: LabelerRequest) => {
    chain = chain.then(async () => {
      try {
        const result =
          request.op === 'detect'
            ? await model.detect(request.frames)
            : request.op === 'memory'
              ? await model.memory()
              : { threadId, nice };
        port.postMessage({ id: request.id, result } satisfies LabelerReply);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        port.postMessage({ id: request.id, error: { message } } satisfies LabelerReply);
      }
    });
  });
}
