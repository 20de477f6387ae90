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

/**
 * ffmpeg must not outlive the server, even a `kill -9` of it. Node cannot set PR_SET_PDEATHSIG, so each run
 * goes through a small POSIX sh watchdog: the binary runs in the background with stdin closed, and the
 * watchdog reads our stdin pipe; when this process dies the pipe closes and the watchdog kills the binary.
 * Arguments pass as positional parameters ("$@"), never interpolated into the script.
 */
const WATCHDOG =
  'exec 3<&0; "$0" "$@" </dev/null & c=$!; ' +
  '( while read -r _ <&3; do :; done; kill -KILL "$c" 2>/dev/null ) & w=$!; ' +
  'wait "$c"; s=$?; kill -KILL "$w" 2>/dev/null; exit "$s"';

const live = new Set<number>();
let exitHook = false;

/** Kills every running child's process group: on a normal exit, SIGINT or SIGTERM the children go first. */
function killAll() {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  live.clear();
}

/** Runs a binary with arguments (never a shell); rejects with its stderr tail on a non-zero exit. */
export function run(
  binary: string,
  args: string[],
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<RunResult> {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', killAll);
  }
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason ?? new Error('aborted'));
      return;
    }
    // detached: its own process group, so one kill reaches the watchdog and the binary together.
    const child = spawn('/bin/sh', ['-c', WATCHDOG, binary, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    if (pid) live.add(pid);
    const kill = () => {
      if (!pid) return;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    };
    const out: Buffer[] = [];
    let err = '';
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.length > 64_000) err = err.slice(-32_000);
    });
    let aborted: unknown = null;
    const onAbort = () => {
      aborted = options.signal?.reason ?? new Error('aborted');
      kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : null;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (pid) live.delete(pid);
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdin.destroy();
      if (aborted) reject(aborted);
      else if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
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
export async function probe(bins: FfmpegBinaries, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  const { stdout } = await run(
    bins.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeoutMs: 30_000, signal },
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
