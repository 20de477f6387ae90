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
  /** Photos (detect calls) one process labels before it is replaced. */
  maxJobs?: number;
  /** RSS past which the process is replaced after its current call, in bytes. */
  maxRss?: number;
}

/**
 * The bounds of one labeler process. Its steady RSS is ~300–400 MB (the WASM memory, the models, Node); a new
 * process costs ~1–2 s of model loading and one fork of the server (tens of milliseconds of its event loop),
 * so it is replaced rarely: after 500 photos, or at once when its RSS passes 1 GiB.
 */
export const LABELER_MAX_JOBS = 500;
export const LABELER_MAX_RSS = 1024 * 1024 * 1024;

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
  });
  return {
    provider: 'local',
    model: humanModelName(),
    // Node's advanced serialization sends a Buffer's own bytes only, even when it is a slice of a larger one.
    label: (frames): Promise<Labels> => labeler.call<Labels>({ op: 'detect', frames }),
    memory: () => labeler.call<TfMemory>({ op: 'memory' }),
    info: () => labeler.call<MediaProcessInfo>({ op: 'info' }),
    close: () => labeler.close(),
  };
}
