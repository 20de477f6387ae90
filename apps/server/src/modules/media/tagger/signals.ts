import type { FfmpegBinaries } from '../processing/ffmpeg.ts';
import { frameStats } from '../processing/image.ts';
import { meanOf, motionBetween } from './image-stats.ts';
import type { Frame, MediaSignals } from './tagger.ts';
import { keyframes, loudness, motionFrames } from './video-signals.ts';

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

/** Signals of a video: three keyframes for labels and colour, motion over 2 fps frames, loudness of the audio. */
export async function videoSignals(
  bins: FfmpegBinaries,
  file: string,
  duration: number,
  options: { hasAudio?: boolean; log?: SignalLog; signal?: AbortSignal } = {},
): Promise<Analysed> {
  const frames = await optional(
    () => keyframes(bins, file, duration, 3, options.signal),
    [],
    options.log,
    options.signal,
  );
  const [stats, greys, db] = await Promise.all([
    Promise.all(frames.map(frameStats)),
    optional(() => motionFrames(bins, file, options.signal), [], options.log, options.signal),
    options.hasAudio !== false
      ? optional(() => loudness(bins, file, options.signal), null, options.log, options.signal)
      : null,
  ]);
  return {
    frames,
    signals: {
      kind: 'video',
      brightness: meanOf(stats, 'brightness'),
      saturation: meanOf(stats, 'saturation'),
      detail: meanOf(stats, 'detail'),
      warmth: meanOf(stats, 'warmth'),
      motion: motionBetween(greys),
      loudnessDb: db,
    },
  };
}
