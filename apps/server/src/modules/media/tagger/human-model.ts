import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
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
  detect(
    input: Tensor,
    config?: Record<string, unknown>,
  ): Promise<{
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

export interface DetectOptions {
  /** Also look at each frame zoomed out (zoomedOut) and keep what either look saw best. */
  zoomOut?: boolean;
}

/** A box as CenterNet gives it: x, y, width, height as shares of the frame it looked at. */
type Box = [number, number, number, number];

/**
 * CenterNet squeezes every frame into 512×512 and, trained on COCO scenes, misses or misnames an object that
 * fills the frame: on the real-photo set the close-up cat is a "dog" at 0.45 and the small dog's face 0.27.
 * Seen again in the middle of a square canvas 1.5 times the frame's longest side (no squeeze, the object a
 * normal size), the cat is a cat at 0.63–0.67 and the dog a dog at 0.55. 1.25× missed the dog (0.43) and named
 * a chessboard a clock (0.64), 2× missed the dog (0.37) and named coins clocks (0.66); a mirrored or edge-copied
 * border repeated the object and lowered the cat to 0.33–0.40 (docs/eval-photos.md).
 */
export const ZOOM_OUT = 1.5;

/**
 * The frame in the middle of a square canvas ZOOM_OUT times its longest side (at most DETECT_SIDE: the frame
 * is shrunk with sharp, which keeps the detail a plain bilinear squeeze into 512 loses — that read the small dog
 * at 0.45 instead of 0.55), the rest filled with the frame's mean colour; `toFrame` maps a box on the canvas
 * back to a share of the frame (clipped to it).
 */
export async function zoomedOut(frame: RawFrame): Promise<{ frame: RawFrame; toFrame: (box: Box) => Box }> {
  const { data, width, height } = frame;
  const side = Math.min(DETECT_SIDE, Math.round(Math.max(width, height) * ZOOM_OUT));
  const inner = Math.max(1, Math.round(side / ZOOM_OUT));
  let [r, g, b] = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) {
    r += data[i]!;
    g += data[i + 1]!;
    b += data[i + 2]!;
  }
  const pixels = Math.max(1, width * height);
  const background = { r: Math.round(r / pixels), g: Math.round(g / pixels), b: Math.round(b / pixels) };
  const small = await sharp(data, { raw: { width, height, channels: 3 } })
    .resize(inner, inner, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = small.info.width;
  const h = small.info.height;
  const left = Math.floor((side - w) / 2);
  const top = Math.floor((side - h) / 2);
  const canvas = await sharp(small.data, { raw: { width: w, height: h, channels: 3 } })
    .extend({ left, top, right: side - w - left, bottom: side - h - top, background })
    .raw()
    .toBuffer();
  const toFrame = ([x, y, bw, bh]: Box): Box => {
    const x0 = Math.max(0, (x * side - left) / w);
    const y0 = Math.max(0, (y * side - top) / h);
    const x1 = Math.min(1, ((x + bw) * side - left) / w);
    const y1 = Math.min(1, ((y + bh) * side - top) / h);
    return [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
  };
  return {
    frame: {
      data: new Uint8Array(canvas.buffer, canvas.byteOffset, canvas.byteLength),
      width: side,
      height: side,
    },
    toFrame,
  };
}

/** One look's detections per label: how many, the best score, the largest box as a share of the frame. */
function perLabel(objects: { label: string; score: number; boxRaw?: Box }[], toFrame: (box: Box) => Box) {
  const seen = new Map<string, { count: number; score: number; area: number }>();
  for (const o of objects) {
    const entry = seen.get(o.label) ?? { count: 0, score: 0, area: 0 };
    entry.count += 1;
    entry.score = Math.max(entry.score, o.score);
    const [, , w, h] = toFrame(o.boxRaw ?? [0, 0, 0, 0]);
    entry.area = Math.max(entry.area, Math.min(1, Math.max(0, w * h)));
    seen.set(o.label, entry);
  }
  return seen;
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

  /** One inference; BlazeFace runs only where `faces` asks (Human keeps the last config it was given). */
  async function detectOne(human: HumanInstance, frame: RawFrame, faces = true) {
    const pixels = Int32Array.from(frame.data);
    const tensor = human.tf.tensor4d(pixels, [1, frame.height, frame.width, 3], 'int32');
    const engine = human.tf.engine();
    engine.startScope();
    try {
      return await human.detect(tensor, { face: { enabled: faces } });
    } finally {
      engine.endScope();
      tensor.dispose();
    }
  }

  /** One frame's labels; with `zoomOut`, a second look at it zoomed out, merged label by label: best score. */
  async function look(human: HumanInstance, frame: RawFrame, zoomOut: boolean) {
    const result = await detectOne(human, frame);
    const seen = perLabel(result.object, (box) => box);
    if (zoomOut) {
      const zoomed = await zoomedOut(frame);
      const again = await detectOne(human, zoomed.frame, false);
      for (const [label, e] of perLabel(again.object, zoomed.toFrame)) {
        const first = seen.get(label);
        // The same objects seen twice, never added up: the count is the frame's own where it saw the label at
        // all. Zoomed out, the detector also boxes parts at the bar's edge — a car's tail light as a second car
        // at 0.25 beside the car at 0.59 — so its count is taken only for a label the frame did not show.
        seen.set(
          label,
          first
            ? {
                count: first.count,
                score: Math.max(first.score, e.score),
                area: Math.max(first.area, e.area),
              }
            : e,
        );
      }
    }
    return { seen, faces: result.face.length };
  }

  return {
    async detect(frames: RawFrame[], options: DetectOptions = {}): Promise<Labels> {
      const human = await load();
      // Merged over the frames: a label's highest count in one frame, its best score, its largest box (share of
      // the frame) and the number of frames it was seen in.
      const merged = new Map<string, { count: number; score: number; area: number; frames: number }>();
      let faces = 0;
      for (const frame of frames) {
        const { seen, faces: found } = await look(human, frame, options.zoomOut ?? false);
        faces = Math.max(faces, found);
        for (const [label, e] of seen) {
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
