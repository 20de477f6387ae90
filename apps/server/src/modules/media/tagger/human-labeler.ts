import { type MediaProcessInfo, mediaProcess } from '../../../lib/media-process.ts';
import type { TfMemory } from './human-model.ts';
import { humanModelName } from './human-model.ts';
import type { LabelerCall } from './labeler-worker.ts';
import type { Labeler, Labels } from './tagger.ts';

export interface HumanLabeler extends Labeler {
  /** The labeler process's live tfjs tensors (stable across posts when every tensor is disposed). */
  memory(): Promise<TfMemory>;
  /** The process the detector runs in (never the server's), its niceness and RSS. */
  info(): Promise<MediaProcessInfo>;
  /** Stops the labeler process (a later call starts a new one). */
  close(): Promise<void>;
}

export interface HumanLabelerOptions {
  /** Detect calls (one frame each from the tagger: a photo, or one of a clip's frames) before it is replaced. */
  maxJobs?: number;
  /** RSS past which the process is replaced after its current call, in bytes. */
  maxRss?: number;
  /** How long the process is kept without a call before it exits, ms. */
  idleMs?: number;
}

/**
 * The bounds of one labeler process. Its steady RSS is ~300–400 MB (the WASM memory, the models, Node); a new
 * process costs ~1–2 s of model loading and one fork of the server (tens of milliseconds of its event loop),
 * so it is replaced rarely: after 500 frames labelled, or at once when its RSS passes 1 GiB.
 */
export const LABELER_MAX_JOBS = 500;
export const LABELER_MAX_RSS = 1024 * 1024 * 1024;
/**
 * An idle server does not keep the detector: its process (~150–300 MB with the models loaded) exits after
 * 10 minutes without a call, and the next upload loads it again while its file arrives (docs/adr/0041).
 */
export const LABELER_IDLE_MS = 10 * 60 * 1000;

/**
 * Local, offline labeler: @vladmandic/human on the tfjs WASM backend — CenterNet objects (COCO) and BlazeFace
 * faces — in a process of its own (labeler-worker.ts), which also shrinks the frames with sharp. The server
 * only passes the encoded frames over; the WASM binaries and model files come from node_modules, nothing is
 * fetched from the network. The process is replaced after `maxJobs` photos or once its RSS passes `maxRss`
 * (the WASM memory and the allocator's arenas never shrink in place); one that dies fails the calls in flight
 * and is started again on the next.
 */
export function humanLabeler(options: HumanLabelerOptions = {}): HumanLabeler {
  const labeler = mediaProcess<LabelerCall>({
    name: 'labeler',
    entry: new URL('./labeler-worker.ts', import.meta.url),
    flag: 'KADR_LABELER',
    counts: (call) => call.op === 'detect',
    maxJobs: options.maxJobs ?? LABELER_MAX_JOBS,
    maxRss: options.maxRss ?? LABELER_MAX_RSS,
    idleMs: options.idleMs ?? LABELER_IDLE_MS,
  });
  return {
    provider: 'local',
    model: humanModelName(),
    // Node's advanced serialization sends a Buffer's own bytes only, even when it is a slice of a larger one.
    label: (frames, options): Promise<Labels> =>
      labeler.call<Labels>({ op: 'detect', frames, zoomOut: options?.zoomOut }),
    warm: () => labeler.call<void>({ op: 'warm' }),
    memory: () => labeler.call<TfMemory>({ op: 'memory' }),
    info: () => labeler.call<MediaProcessInfo>({ op: 'info' }),
    close: () => labeler.close(),
  };
}
