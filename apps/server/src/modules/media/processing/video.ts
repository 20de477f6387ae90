import fs from 'node:fs/promises';
import path from 'node:path';
import { type FfmpegBinaries, probe, run } from './ffmpeg.ts';
import { meanColour, videoPoster } from './image.ts';

/** Longest side of the transcoded video. */
export const VIDEO_MAX_SIDE = 1280;

export interface ProcessedVideo {
  /** H.264/AAC MP4 with the index at the front (faststart), written into the work directory. */
  file: string;
  /** webp poster (the cover when one was given, else the first frame — or a representative one after a fade-in) and its thumbnail. */
  poster: Buffer;
  thumbnail: Buffer;
  width: number;
  height: number;
  duration: number;
  hasAudio: boolean;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * An uploaded video → a streaming-friendly MP4 plus poster. Reusable for chat attachments.
 * `workDir` receives the output; the caller stores it and removes the directory.
 */
export async function processVideo(
  bins: FfmpegBinaries,
  input: string,
  workDir: string,
  options: {
    cover?: string | Buffer | null;
    threads?: number;
    signal?: AbortSignal;
    /** Keep only this part of the input (seconds); the output starts at `start`. */
    segment?: { start: number; duration: number };
    /** Fit the picture into this aspect (width / height), padding the rest (stories: 9 / 16). */
    aspect?: number;
    /** More filters on the fitted picture, given its output size (stories: the author's texts). */
    draw?: (width: number, height: number) => Promise<string | null>;
    /** Called as the transcode advances: the share of the output written, 0 … 1 (read from ffmpeg's -progress). */
    onProgress?: (fraction: number) => void;
  } = {},
): Promise<ProcessedVideo> {
  const info = await probe(bins, input, { signal: options.signal });
  if (!info.video || !info.duration) throw new Error('not a video with a duration');
  const rotated = info.video.rotation === 90 || info.video.rotation === 270;
  const srcW = rotated ? info.video.height : info.video.width;
  const srcH = rotated ? info.video.width : info.video.height;
  let boxW = srcW;
  let boxH = srcH;
  if (options.aspect) {
    // The smallest box of that aspect holding the whole picture.
    if (srcW / srcH > options.aspect) boxH = srcW / options.aspect;
    else boxW = srcH * options.aspect;
  }
  const scale = Math.min(1, VIDEO_MAX_SIDE / Math.max(boxW, boxH));
  const width = even(boxW * scale);
  const height = even(boxH * scale);
  const file = path.join(workDir, 'video.mp4');
  const args = ['-hide_banner', '-y'];
  // Seeking before the input is frame-accurate when transcoding, and skips decoding what is cut away.
  if (options.segment)
    args.push('-ss', String(options.segment.start), '-t', String(options.segment.duration));
  args.push('-i', input, '-map', '0:v:0');
  if (info.hasAudio) args.push('-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2');
  const fit = options.aspect
    ? `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`
    : `scale=${width}:${height}`;
  const drawn = options.draw ? await options.draw(width, height) : null;
  args.push(
    '-vf',
    `${fit},${drawn ? `${drawn},` : ''}format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-profile:v',
    'high',
    '-r',
    '30',
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    '-threads',
    String(options.threads ?? 0),
    '-f',
    'mp4',
    file,
  );
  const total = options.segment?.duration ?? info.duration;
  const progressFile = path.join(workDir, 'progress.txt');
  if (options.onProgress) args.splice(2, 0, '-progress', progressFile);
  const watch = options.onProgress ? watchProgress(progressFile, total, options.onProgress) : null;
  try {
    await run(bins.ffmpeg, args, { timeoutMs: 15 * 60_000, signal: options.signal });
  } finally {
    watch?.stop();
  }

  const posterSource = options.cover ?? (await posterFrame(bins, file, options.signal));
  const { poster, thumbnail } = await videoPoster(posterSource, width, height);
  const out = await probe(bins, file, { signal: options.signal });
  return {
    file,
    poster,
    thumbnail,
    width,
    height,
    duration: Math.round((out.duration ?? info.duration) * 100) / 100,
    hasAudio: info.hasAudio,
  };
}

/**
 * Follows ffmpeg's `-progress` file (key=value blocks, appended about twice a second): the last `out_time_us`
 * over the expected duration. Read once a second; a missing or partial file is simply read again later.
 */
function watchProgress(file: string, total: number, report: (fraction: number) => void) {
  let last = -1;
  const timer = setInterval(() => {
    fs.readFile(file, 'utf8')
      .then((text) => {
        const matches = [...text.matchAll(/out_time_us=(\d+)/g)];
        const us = Number(matches.at(-1)?.[1] ?? 0);
        const fraction = Math.min(1, us / 1e6 / Math.max(total, 0.1));
        if (fraction > last) {
          last = fraction;
          report(fraction);
        }
      })
      .catch(() => undefined);
  }, 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One frame as PNG bytes: the first, or the one ffmpeg's video filter `vf` picks. */
async function frame(
  bins: FfmpegBinaries,
  file: string,
  vf: string | null,
  signal?: AbortSignal,
): Promise<Buffer> {
  const { stdout } = await run(
    bins.ffmpeg,
    [
      ...['-hide_banner', '-v', 'error', '-i', file],
      ...(vf ? ['-vf', vf] : []),
      ...['-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
    ],
    { timeoutMs: 60_000, signal },
  );
  return stdout;
}

/** The first frame as PNG bytes. */
export const firstFrame = (bins: FfmpegBinaries, file: string, signal?: AbortSignal) =>
  frame(bins, file, null, signal);

/** Mean brightness (0–255) below which a frame reads as black: the first frame of a fade-in. */
const DARK_FRAME_MEAN = 12;
/** Frames the fallback looks over for a representative one (~3 s at 30 fps). */
const REPRESENTATIVE_OVER = 90;

/**
 * The poster as PNG bytes: the first frame, unless it is (nearly) black — a fade-in or a black leader, which
 * would make every such video's cover the same black tile — then the most representative of the first frames
 * (ffmpeg's `thumbnail` filter: the frame closest to their average histogram).
 */
export async function posterFrame(bins: FfmpegBinaries, file: string, signal?: AbortSignal): Promise<Buffer> {
  const first = await firstFrame(bins, file, signal);
  if ((await meanColour(first)) >= DARK_FRAME_MEAN) return first;
  const picked = await frame(bins, file, `thumbnail=n=${REPRESENTATIVE_OVER}`, signal);
  return picked.length > 0 ? picked : first;
}
