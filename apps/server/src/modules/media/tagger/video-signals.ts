import { type FfmpegBinaries, run } from '../processing/ffmpeg.ts';

/** Frames for the labeler: PNG frames at the given times (seconds). A frame ffmpeg cannot give fails the call. */
export async function keyframesAt(
  bins: FfmpegBinaries,
  file: string,
  times: number[],
  signal?: AbortSignal,
): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  for (const at of times) {
    const { stdout } = await run(
      bins.ffmpeg,
      [
        '-hide_banner',
        '-v',
        'error',
        '-ss',
        at.toFixed(2),
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'scale=640:-2',
        '-f',
        'image2pipe',
        '-vcodec',
        'png',
        '-',
      ],
      { timeoutMs: 120_000, signal },
    );
    if (stdout.length > 0) frames.push(stdout);
  }
  return frames;
}

/** The middles of `count` equal parts of the video. */
export function evenTimes(duration: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (duration * (i + 0.5)) / count);
}

/** The motion frames' side and how many are taken over a whole clip at most. */
const MOTION_SIDE = 64;
const MOTION_FRAMES = 120;

export interface MotionTrack {
  greys: Uint8Array[];
  /** Seconds between two frames. */
  step: number;
}

/** Small greyscale frames over the whole clip: twice a second, fewer for a long clip (at most 120). */
export async function motionFrames(
  bins: FfmpegBinaries,
  file: string,
  duration: number,
  signal?: AbortSignal,
): Promise<MotionTrack> {
  const side = MOTION_SIDE;
  const fps = Math.min(2, MOTION_FRAMES / Math.max(duration, 1));
  const { stdout } = await run(
    bins.ffmpeg,
    [
      '-hide_banner',
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `fps=${fps.toFixed(4)},scale=${side}:${side},format=gray`,
      '-f',
      'rawvideo',
      '-',
    ],
    { timeoutMs: 180_000, signal },
  );
  const greys: Uint8Array[] = [];
  for (let off = 0; off + side * side <= stdout.length; off += side * side) {
    greys.push(new Uint8Array(stdout.subarray(off, off + side * side)));
  }
  return { greys, step: 1 / fps };
}

/** Mean absolute difference of each pair of consecutive frames, 0 … 1. */
export function frameDiffs(greys: Uint8Array[]): number[] {
  const diffs: number[] = [];
  for (let f = 1; f < greys.length; f++) {
    const a = greys[f - 1]!;
    const b = greys[f]!;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    diffs.push(diff / a.length / 255);
  }
  return diffs;
}

/** A jump this large between two frames (and well above the clip's usual change) is a cut to a new scene. */
const CUT_DIFF = 0.12;

/** Indices into `diffs` that are cuts: a new scene starts at frame i + 1. */
export function sceneCuts(diffs: number[]): number[] {
  if (diffs.length === 0) return [];
  const sorted = [...diffs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return diffs.flatMap((d, i) => (d >= CUT_DIFF && d >= median * 3 ? [i] : []));
}

/**
 * Motion of a clip, 0 … 1 on the scale of the dynamic threshold (0.15 is lively): the mean change between
 * consecutive frames, cuts left out (a cut is editing, not movement).
 */
export function motionOf(diffs: number[], cuts: number[]): number {
  const skip = new Set(cuts);
  const kept = diffs.filter((_, i) => !skip.has(i));
  if (kept.length === 0) return 0;
  return Math.min(1, (kept.reduce((a, b) => a + b, 0) / kept.length) * 4);
}

/**
 * When to look at a clip: evenly over its whole length (4 frames, one more per 15 s, at most 8), plus the
 * start of every scene (a second into it) not already close to one of those, at most 12 frames in all.
 */
export function sampleTimes(duration: number, cutTimes: number[]): number[] {
  const even = evenTimes(duration, Math.min(8, 4 + Math.floor(duration / 15)));
  const times = [...even];
  const near = Math.max(0.5, duration / 20);
  for (const cut of cutTimes) {
    if (times.length >= 12) break;
    const at = Math.min(duration - 0.05, cut + Math.min(1, (duration - cut) / 2));
    if (at > 0 && times.every((t) => Math.abs(t - at) > near)) times.push(at);
  }
  return times.sort((a, b) => a - b);
}

/** Mean loudness of the audio track in dBFS (ffmpeg volumedetect). Call it only for a file with audio. */
export async function loudness(
  bins: FfmpegBinaries,
  file: string,
  signal?: AbortSignal,
): Promise<number | null> {
  const { stderr } = await run(
    bins.ffmpeg,
    [
      '-hide_banner',
      '-i',
      file,
      '-t',
      '30',
      '-map',
      '0:a:0',
      '-af',
      'volumedetect',
      '-vn',
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: 120_000, signal },
  );
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match) return null;
  return match[1] === '-inf' ? -91 : Number(match[1]);
}
