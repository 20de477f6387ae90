import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { Frame, Labeler, Labels } from './tagger.ts';

/** The part of @vladmandic/human (and its tfjs) we use; the package's own types pull in DOM types. */
interface Tensor {
  dispose(): void;
}
interface ModelArtifacts {
  weightData?: ArrayBuffer;
}
interface Tf {
  tensor4d(values: Int32Array, shape: [number, number, number, number], dtype: 'int32'): Tensor;
  getBackend(): string;
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
  detect(input: Tensor): Promise<{ object: { label: string; score: number }[]; face: unknown[] }>;
}
type HumanCtor = new (config: Record<string, unknown>) => HumanInstance;

const require = createRequire(import.meta.url);
const routedTfs = new WeakSet<Tf>();

/** Model files are read from disk: Node's fetch has no file:// support and nothing may come from the network. */
function routeFileUrls(tf: Tf) {
  if (routedTfs.has(tf)) return;
  routedTfs.add(tf);
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

const DETECT_SIDE = 512;

/**
 * Local, offline labeler: @vladmandic/human on the tfjs WASM backend — CenterNet objects (COCO) and BlazeFace
 * faces. The WASM binaries and model files come from node_modules; nothing is fetched from the network.
 */
export function humanLabeler(): Labeler {
  const humanDir = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), path.sep);
  const version = (require(path.join(humanDir, 'package.json')) as { version: string }).version;
  let ready: Promise<HumanInstance> | null = null;
  // tfjs runs one inference at a time per process; callers queue here.
  let chain: Promise<unknown> = Promise.resolve();

  function load(): Promise<HumanInstance> {
    ready ??= (async () => {
      const { Human } = require(path.join(humanDir, 'dist/human.node-wasm.js')) as { Human: HumanCtor };
      const human = new Human({
        backend: 'wasm',
        wasmPath: wasmDir,
        wasmPlatformFetch: false,
        modelBasePath: `${pathToFileURL(path.join(humanDir, 'models')).href}/`,
        cacheModels: false,
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

  async function labelFrame(human: HumanInstance, frame: Frame) {
    const { data, info } = await sharp(frame)
      .removeAlpha()
      .resize(DETECT_SIDE, DETECT_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tensor = human.tf.tensor4d(Int32Array.from(data), [1, info.height, info.width, 3], 'int32');
    try {
      return await human.detect(tensor);
    } finally {
      tensor.dispose();
    }
  }

  return {
    provider: 'local',
    model: `human-${version}/centernet+blazeface`,
    async label(frames) {
      const human = await load();
      const run = chain.then(async () => {
        const counts = new Map<string, { count: number; score: number }>();
        let faces = 0;
        for (const frame of frames) {
          const result = await labelFrame(human, frame);
          faces = Math.max(faces, result.face.length);
          const perFrame = new Map<string, { count: number; score: number }>();
          for (const o of result.object) {
            const entry = perFrame.get(o.label) ?? { count: 0, score: 0 };
            entry.count += 1;
            entry.score = Math.max(entry.score, o.score);
            perFrame.set(o.label, entry);
          }
          for (const [label, e] of perFrame) {
            const best = counts.get(label) ?? { count: 0, score: 0 };
            counts.set(label, { count: Math.max(best.count, e.count), score: Math.max(best.score, e.score) });
          }
        }
        const labels: Labels = { objects: [...counts].map(([label, e]) => ({ label, ...e })), faces };
        return labels;
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
