import type { FfmpegBinaries } from '../processing/ffmpeg.ts';
import { frameStats } from '../processing/image.ts';
import { meanOf } from './image-stats.ts';
import type { Frame, MediaSignals } from './tagger.ts';
import {
  frameDiffs,
  keyframesAt,
  loudness,
  motionFrames,
  motionOf,
  sampleTimes,
  sceneCuts,
} from './video-signals.ts';

export interface Analysed {
  frames: Frame[];
  signals: MediaSignals;
}

/** Signals of still images (one post's images, up to five looked at). */
export async function imageSignals(images: Buffer[]): Promise<Analysed> {
  const frames = images.slice(0, 5);
  const stats = await Promise.all(frames.map(frameStats));
  return {
    frames,
    signals: {
      kind: images.length > 1 ? 'carousel' : 'image',
      brightness: meanOf(stats, 'brightness'),
      saturation: meanOf(stats, 'saturation'),
      detail: meanOf(stats, 'detail'),
      warmth: meanOf(stats, 'warmth'),
      motion: 0,
      loudnessDb: null,
    },
  };
}

/** An optional signal that cannot be computed is left out, never fatal: the post still gets tagged. */
async function optional<T>(
  work: () => Promise<T>,
  fallback: T,
  log?: SignalLog,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal?.aborted) throw error;
    log?.({ err: error }, 'optional media signal skipped');
    return fallback;
  }
}

export type SignalLog = (obj: object, msg: string) => void;

/**
 * Signals of a video, over its whole length: motion from small frames of the whole clip (cuts found there),
 * frames for the labeler spread evenly plus one after every cut, loudness of the audio. The frames and the
 * motion are required — a clip the labeler cannot look at fails (the job retries) rather than being tagged
 * from its colours alone; only loudness is optional.
 */
export async function videoSignals(
  bins: FfmpegBinaries,
  file: string,
  duration: number,
  options: { hasAudio?: boolean; log?: SignalLog; signal?: AbortSignal } = {},
): Promise<Analysed> {
  const [track, db] = await Promise.all([
    motionFrames(bins, file, duration, options.signal),
    options.hasAudio !== false
      ? optional(() => loudness(bins, file, options.signal), null, options.log, options.signal)
      : null,
  ]);
  const diffs = frameDiffs(track.greys);
  const cuts = sceneCuts(diffs);
  const times = sampleTimes(
    duration,
    cuts.map((i) => (i + 1) * track.step),
  );
  const frames = await keyframesAt(bins, file, times, options.signal);
  if (frames.length === 0) throw new Error('no frame could be read from the video');
  const stats = await Promise.all(frames.map(frameStats));
  return {
    frames,
    signals: {
      kind: 'video',
      brightness: meanOf(stats, 'brightness'),
      saturation: meanOf(stats, 'saturation'),
      detail: meanOf(stats, 'detail'),
      warmth: meanOf(stats, 'warmth'),
      motion: motionOf(diffs, cuts),
      loudnessDb: db,
    },
  };
}
