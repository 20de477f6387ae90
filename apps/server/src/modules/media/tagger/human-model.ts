import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Labels } from './tagger.ts';

/**
 * The detector itself: @vladmandic/human on the tfjs WASM backend. Its inference runs synchronously on the
 * thread that calls it (100–200 ms per frame), so only the labeler's own process loads this file
 * (labeler-worker.ts); the server never does.
 */

/** The part of @vladmandic/human (and its tfjs) we use; the package's own types pull in DOM types. */
interface Tensor {
  dispose(): void;
}
interface ModelArtifacts {
  weightData?: ArrayBuffer;
}
export interface TfMemory {
  numTensors: number;
  numBytes: number;
}
interface Tf {
  tensor4d(values: Int32Array, shape: [number, number, number, number], dtype: 'int32'): Tensor;
  getBackend(): string;
  memory(): TfMemory;
  engine(): { startScope(): void; endScope(): void };
  io: {
    registerLoadRouter(router: (url: string | string[]) => { load(): Promise<ModelArtifacts> } | null): void;
    getModelArtifactsForJSON(
      json: unknown,
      loadWeights: (manifest: { paths: string[]; weights: unknown[] }[]) => Promise<[unknown[], ArrayBuffer]>,
    ): Promise<ModelArtifacts>;
  };
}
interface HumanInstance {
  tf: Tf;
  version: string;
  load(): Promise<void>;
  detect(input: Tensor): Promise<{
    object: { label: string; score: number; boxRaw: [number, number, number, number] }[];
    face: unknown[];
  }>;
}
type HumanCtor = new (config: Record<string, unknown>) => HumanInstance;

/** One frame as the detector takes it: packed RGB bytes, at most DETECT_SIDE on its longest side. */
export interface RawFrame {
  data: Uint8Array;
  width: number;
  height: number;
}

export const DETECT_SIDE = 512;

const require = createRequire(import.meta.url);

export function humanDir(): string {
  return path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
}

export function humanModelName(): string {
  const version = (require(path.join(humanDir(), 'package.json')) as { version: string }).version;
  return `human-${version}/centernet+blazeface`;
}

/** Model files are read from disk: Node's fetch has no file:// support and nothing may come from the network. */
function routeFileUrls(tf: Tf) {
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const file = fileURLToPath(url);
    return {
      load: async () => {
        const json = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
        return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
          const specs: unknown[] = [];
          const parts: Buffer[] = [];
          for (const group of manifest) {
            for (const p of group.paths) parts.push(await fs.readFile(path.join(path.dirname(file), p)));
            specs.push(...group.weights);
          }
          const all = Buffer.concat(parts);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  });
}

/**
 * Loads the detector once per thread; `detect` labels a post's frames (one inference at a time — callers queue
 * in the worker's message order). Every tensor an inference makes is released when it ends: the input is
 * disposed and the whole run sits in an engine scope, so `memory().numTensors` is the same after every call.
 */
export function humanModel() {
  const dir = humanDir();
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), path.sep);
  let ready: Promise<HumanInstance> | null = null;

  function load(): Promise<HumanInstance> {
    ready ??= (async () => {
      const { Human } = require(path.join(dir, 'dist/human.node-wasm.js')) as { Human: HumanCtor };
      const human = new Human({
        backend: 'wasm',
        wasmPath: wasmDir,
        wasmPlatformFetch: false,
        modelBasePath: `${pathToFileURL(path.join(dir, 'models')).href}/`,
        cacheModels: false,
        // Human otherwise keeps the previous input to skip "unchanged" frames: every post is a new picture.
        cacheSensitivity: 0,
        debug: false,
        async: false,
        warmup: 'none',
        filter: { enabled: false },
        face: {
          enabled: true,
          // BlazeFace scores 0.3–0.55 on textures, fruit, documents and animal faces (0.83 on a cat) in the
          // real-photo set; real human faces scored 0.74–0.90. Below 0.7 a "face" is noise.
          detector: { rotation: false, maxDetected: 20, minConfidence: 0.7 },
          mesh: { enabled: false },
          iris: { enabled: false },
          description: { enabled: false },
          emotion: { enabled: false },
          antispoof: { enabled: false },
          liveness: { enabled: false },
        },
        body: { enabled: false },
        hand: { enabled: false },
        gesture: { enabled: false },
        segmentation: { enabled: false },
        object: { enabled: true, modelPath: 'centernet.json', minConfidence: 0.25, maxDetected: 20 },
      });
      routeFileUrls(human.tf);
      await human.load();
      return human;
    })();
    ready.catch(() => {
      ready = null;
    });
    return ready;
  }

  async function detectOne(human: HumanInstance, frame: RawFrame) {
    const pixels = Int32Array.from(frame.data);
    const tensor = human.tf.tensor4d(pixels, [1, frame.height, frame.width, 3], 'int32');
    const engine = human.tf.engine();
    engine.startScope();
    try {
      return await human.detect(tensor);
    } finally {
      engine.endScope();
      tensor.dispose();
    }
  }

  return {
    async detect(frames: RawFrame[]): Promise<Labels> {
      const human = await load();
      // Merged over the frames: a label's highest count in one frame, its best score, its largest box (share of
      // the frame) and the number of frames it was seen in.
      const merged = new Map<string, { count: number; score: number; area: number; frames: number }>();
      let faces = 0;
      for (const frame of frames) {
        const result = await detectOne(human, frame);
        faces = Math.max(faces, result.face.length);
        const perFrame = new Map<string, { count: number; score: number; area: number }>();
        for (const o of result.object) {
          const entry = perFrame.get(o.label) ?? { count: 0, score: 0, area: 0 };
          entry.count += 1;
          entry.score = Math.max(entry.score, o.score);
          const [, , w, h] = o.boxRaw ?? [0, 0, 0, 0];
          entry.area = Math.max(entry.area, Math.min(1, Math.max(0, w * h)));
          perFrame.set(o.label, entry);
        }
        for (const [label, e] of perFrame) {
          const best = merged.get(label) ?? { count: 0, score: 0, area: 0, frames: 0 };
          merged.set(label, {
            count: Math.max(best.count, e.count),
            score: Math.max(best.score, e.score),
            area: Math.max(best.area, e.area),
            frames: best.frames + 1,
          });
        }
      }
      return { objects: [...merged].map(([label, e]) => ({ label, ...e })), faces };
    },
    /** Loads the models and runs one small inference, so the first post does not wait for either. */
    async warm(): Promise<void> {
      const human = await load();
      await detectOne(human, { data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 });
    },
    /** Live tensors of this thread's tfjs (tests check the count does not grow with each post). */
    async memory(): Promise<TfMemory> {
      const human = await load();
      const m = human.tf.memory();
      return { numTensors: m.numTensors, numBytes: m.numBytes };
    },
  };
}
