import { type FfmpegBinaries, run } from '../processing/ffmpeg.ts';

/** Keyframes for the labeler: PNG frames at 10 %, 50 % and 90 % of the video. */
export async function keyframes(
  bins: FfmpegBinaries,
  file: string,
  duration: number,
  count = 3,
  signal?: AbortSignal,
): Promise<Buffer[]> {
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const at = (duration * (i + 0.5)) / count;
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
      { timeoutMs: 60_000, signal },
    );
    if (stdout.length > 0) frames.push(stdout);
  }
  return frames;
}

/** Small greyscale frames twice a second over the first 20 s, for motion. */
export async function motionFrames(
  bins: FfmpegBinaries,
  file: string,
  signal?: AbortSignal,
): Promise<Uint8Array[]> {
  const side = 64;
  const { stdout } = await run(
    bins.ffmpeg,
    [
      '-hide_banner',
      '-v',
      'error',
      '-t',
      '20',
      '-i',
      file,
      '-vf',
      `fps=2,scale=${side}:${side},format=gray`,
      '-f',
      'rawvideo',
      '-',
    ],
    { timeoutMs: 120_000, signal },
  );
  const frames: Uint8Array[] = [];
  for (let off = 0; off + side * side <= stdout.length; off += side * side) {
    frames.push(new Uint8Array(stdout.subarray(off, off + side * side)));
  }
  return frames;
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
