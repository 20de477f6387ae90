import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { DETECT_SIDE, humanModelName, type RawFrame, type TfMemory } from './human-model.ts';
import type { LabelerCall, LabelerReply } from './labeler-worker.ts';
import type { Frame, Labeler, Labels } from './tagger.ts';

const require = createRequire(import.meta.url);

/**
 * The worker thread: beside the compiled server bundle it is `labeler-worker.mjs` (scripts/build-server.mjs
 * builds both). Running from source (tests, benches) it is the TypeScript file, loaded through tsx's loader,
 * which a worker on Node 20 must register itself (`--import` in a worker's execArgv is not honoured there).
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./labeler-worker.mjs', import.meta.url));
  // tsx's ES module API (its `require` flavour resolves its own files wrongly from an eval'd worker).
  const tsx = pathToFileURL(path.join(path.dirname(require.resolve('tsx/esm/api')), 'index.mjs')).href;
  const entry = new URL('./labeler-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}

export interface HumanLabeler extends Labeler {
  /** The worker thread's live tfjs tensors (stable across posts when every tensor is disposed). */
  memory(): Promise<TfMemory>;
  /** The thread id the detector runs on (never 0, the main thread). */
  threadId(): Promise<number>;
  /** That thread's niceness (Linux; null elsewhere). */
  niceness(): Promise<number | null>;
  /** Terminates the worker (a later call starts a new one). */
  close(): Promise<void>;
}

/**
 * Local, offline labeler: @vladmandic/human on the tfjs WASM backend — CenterNet objects (COCO) and BlazeFace
 * faces — in its own worker thread. This thread only shrinks each frame with sharp (libvips works on libuv's
 * threads) and hands the raw pixels over; the WASM binaries and model files come from node_modules, nothing
 * is fetched from the network. A worker that dies fails the calls in flight and is started again on the next.
 */
export function humanLabeler(): HumanLabeler {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  function failAll(error: Error) {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  }

  function start(): Worker {
    if (worker) return worker;
    const w = startWorker();
    w.on('message', (reply: LabelerReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(reply.error.message));
      else p.resolve(reply.result);
    });
    w.on('error', (error) => {
      if (worker === w) worker = null;
      failAll(error);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(new Error(`labeler worker exited with code ${code}`));
    });
    // An idle worker must not keep the process alive; calls in flight ref it again.
    w.unref();
    worker = w;
    return w;
  }

  function call<T>(request: LabelerCall, transfer: ArrayBuffer[] = []): Promise<T> {
    const w = start();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, {
        resolve: (value) => {
          if (pending.size === 0) w.unref();
          resolve(value as T);
        },
        reject: (error) => {
          if (pending.size === 0) w.unref();
          reject(error);
        },
      });
      w.ref();
      w.postMessage({ ...request, id }, transfer);
    });
  }

  async function rawFrame(frame: Frame): Promise<RawFrame> {
    const { data, info } = await sharp(frame)
      .removeAlpha()
      .resize(DETECT_SIDE, DETECT_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // A copy of its own, so the transfer moves exactly these bytes (a Buffer may sit inside a shared pool).
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  }

  return {
    provider: 'local',
    model: humanModelName(),
    async label(frames): Promise<Labels> {
      const raw = await Promise.all(frames.map(rawFrame));
      return call<Labels>(
        { op: 'detect', frames: raw },
        raw.map((f) => f.data.buffer as ArrayBuffer),
      );
    },
    memory: () => call<TfMemory>({ op: 'memory' }),
    threadId: async () => (await call<{ threadId: number }>({ op: 'thread' })).threadId,
    niceness: async () => (await call<{ nice: number | null }>({ op: 'thread' })).nice,
    async close() {
      const w = worker;
      worker = null;
      if (!w) return;
      failAll(new Error('labeler closed'));
      await w.terminate();
    },
  };
}
