import path from 'node:path';
import { type FfmpegBinaries, probe, run } from '../media/processing/ffmpeg.ts';

/** Bars in a voice message's waveform. */
export const WAVEFORM_BARS = 64;
/** Voice messages longer than this are refused (ten minutes, like the recorder's own cap). */
export const VOICE_MAX_SECONDS = 600;

export interface ProcessedVoice {
  /** AAC-LC in an MP4 container (`.m4a`): plays in every browser including iOS Safari. */
  file: string;
  duration: number;
  waveform: number[];
}

/** Whether a recording is audio only: at least one audio stream, no picture (checked before anything is kept). */
export async function isAudioOnly(bins: FfmpegBinaries, file: string): Promise<boolean> {
  try {
    const info = await probe(bins, file, { lane: 'request' });
    return info.hasAudio && info.video === null;
  } catch {
    return false;
  }
}

/** Peak level per bar of mono 16-bit PCM, scaled to 0–100 against the loudest bar (silence stays flat). */
export function waveformOf(pcm: Buffer, bars = WAVEFORM_BARS): number[] {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return new Array(bars).fill(0);
  const peaks: number[] = [];
  for (let bar = 0; bar < bars; bar += 1) {
    const from = Math.floor((bar * samples) / bars);
    const to = Math.max(from + 1, Math.floor(((bar + 1) * samples) / bars));
    let peak = 0;
    for (let i = from; i < to && i < samples; i += 1) {
      const v = Math.abs(pcm.readInt16LE(i * 2));
      if (v > peak) peak = v;
    }
    peaks.push(peak);
  }
  const max = Math.max(...peaks);
  // Below about -50 dBFS everything is treated as silence.
  if (max < 100) return peaks.map(() => 0);
  return peaks.map((p) => Math.round((p / max) * 100));
}

/**
 * A voice recording (whatever the browser's MediaRecorder wrote: WebM/Opus in Chromium and Firefox, MP4/AAC in
 * Safari) becomes mono AAC-LC 64 kbit/s in `.m4a` with ffmpeg's native encoder, plus its waveform from the
 * decoded audio (8 kHz mono PCM is plenty for 64 bars).
 */
export async function processVoice(
  bins: FfmpegBinaries,
  input: string,
  workDir: string,
  options: { signal?: AbortSignal } = {},
): Promise<ProcessedVoice> {
  const file = path.join(workDir, 'voice.m4a');
  await run(
    bins.ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      input,
      '-vn',
      '-map',
      '0:a:0',
      '-t',
      String(VOICE_MAX_SECONDS),
      '-ac',
      '1',
      '-ar',
      '48000',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-movflags',
      '+faststart',
      '-threads',
      '1',
      file,
    ],
    { timeoutMs: 120_000, signal: options.signal },
  );
  const info = await probe(bins, file, { signal: options.signal });
  if (!info.hasAudio || info.duration === null) throw new Error('Input has no audio');
  const { stdout } = await run(
    bins.ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
    { timeoutMs: 60_000, signal: options.signal },
  );
  return { file, duration: Math.round(info.duration * 100) / 100, waveform: waveformOf(stdout) };
}
