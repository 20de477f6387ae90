import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

const SYSTEM_DIRS = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'];

function packaged(name: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | null {
  try {
    const require = createRequire(import.meta.url);
    const mod = require(name) as { path?: string };
    return mod.path && fs.existsSync(mod.path) ? mod.path : null;
  } catch {
    return null;
  }
}

function onPath(binary: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const full = `${dir}/${binary}`;
    if (fs.existsSync(full)) return full;
  }
  return null;
}

/** Debian's ffmpeg/ffprobe when installed, else the binaries the npm installer packages ship. */
export function findFfmpeg(): FfmpegBinaries {
  const ffmpeg = onPath('ffmpeg') ?? packaged('@ffmpeg-installer/ffmpeg');
  const ffprobe = onPath('ffprobe') ?? packaged('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe)
    throw new Error('ffmpeg/ffprobe not found: install Debian ffmpeg or the npm installers');
  return { ffmpeg, ffprobe };
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** Runs a binary with arguments (never a shell); rejects with its stderr tail on a non-zero exit. */
export function run(
  binary: string,
  args: string[],
  options: { timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.length > 64_000) err = err.slice(-32_000);
    });
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : null;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new Error(`${binary} exited with ${code ?? signal}: ${err.slice(-600)}`));
    });
  });
}

export interface ProbeResult {
  formatName: string;
  duration: number | null;
  video: { codec: string; width: number; height: number; rotation: number } | null;
  hasAudio: boolean;
}

/** ffprobe's view of a file; throws when ffprobe cannot read it as media. */
export async function probe(bins: FfmpegBinaries, file: string): Promise<ProbeResult> {
  const { stdout } = await run(
    bins.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeoutMs: 30_000 },
  );
  const info = JSON.parse(stdout.toString()) as {
    format?: { format_name?: string; duration?: string };
    streams?: {
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      duration?: string;
      tags?: { rotate?: string };
      side_data_list?: { rotation?: number }[];
    }[];
  };
  const streams = info.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video');
  const duration = Number(info.format?.duration ?? v?.duration);
  const rotation = Number(
    v?.tags?.rotate ?? v?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0,
  );
  return {
    formatName: info.format?.format_name ?? '',
    duration: Number.isFinite(duration) && duration > 0 ? duration : null,
    video:
      v?.width && v.height
        ? { codec: v.codec_name ?? '', width: v.width, height: v.height, rotation: Math.abs(rotation) % 360 }
        : null,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}
