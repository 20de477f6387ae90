import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mediaProcessEnv } from '../../../lib/thread-priority.ts';
import type { SpawnerReply, SpawnerRequest } from './media-spawner.ts';

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

const require = createRequire(import.meta.url);

const SYSTEM_DIRS = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'];

function packaged(name: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | null {
  try {
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
 * The launcher processes (media-spawner.ts): the server never forks a binary itself, since each fork of a large
 * process held the event loop for tens of milliseconds. Beside the compiled bundle it is
 * `media-spawner.mjs` (scripts/build-server.mjs builds it); from source it is the TypeScript file under tsx.
 * Started on the first run, started again after it dies; idle, it does not keep the server alive.
 *
 * Two lanes. `media`, lowered to the media priority (SCHED_IDLE where it can), runs the background's work:
 * transcodes, posters, the probes of a job. `request` keeps the server's priority and runs the probes a waiting
 * request needs (is this upload a video?): under SCHED_IDLE such a probe got no core while the machine was busy,
 * timed out after 30 s, and the upload was refused as not a video.
 */
export type SpawnerLane = 'media' | 'request';

interface Launcher {
  child: ChildProcess;
  calls: Map<number, { resolve(r: RunResult): void; reject(error: Error): void }>;
}

const launchers = new Map<SpawnerLane, Launcher>();
let nextId = 1;

function startSpawner(lane: SpawnerLane): Launcher {
  const running = launchers.get(lane);
  if (running) return running;
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(
    new URL(fromSource ? './media-spawner.ts' : './media-spawner.mjs', import.meta.url),
  );
  const child = fork(entry, [], {
    // Not the server's flags (heap size, profiler, inspector): a plain Node that only launches binaries.
    execArgv: fromSource ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [],
    env: { ...process.env, ...(lane === 'media' ? mediaProcessEnv() : {}), KADR_MEDIA_SPAWNER: lane },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const launcher: Launcher = { child, calls: new Map() };
  const { calls } = launcher;
  child.on('message', (reply: SpawnerReply) => {
    const call = calls.get(reply.id);
    if (!call) return;
    calls.delete(reply.id);
    if (calls.size === 0) idle(child);
    if ('error' in reply) call.reject(new Error(reply.error));
    else
      call.resolve({
        stdout: Buffer.from(reply.stdout.buffer, reply.stdout.byteOffset, reply.stdout.byteLength),
        stderr: reply.stderr,
      });
  });
  const stopped = (why: string) => {
    if (launchers.get(lane) !== launcher) return;
    launchers.delete(lane);
    const error = new Error(`media spawner stopped: ${why}`);
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };
  child.on('error', (error) => stopped(error.message));
  child.on('exit', (code, signal) => stopped(String(code ?? signal)));
  idle(child);
  launchers.set(lane, launcher);
  return launcher;
}

/** An idle launcher must not keep the process alive; calls in flight ref it again. */
function idle(child: ChildProcess) {
  child.unref();
  child.channel?.unref();
}

/**
 * Runs a binary with arguments (never a shell); rejects with its stderr tail on a non-zero exit. `lane`:
 * `media` (default) for background work, `request` for a short run a request waits on.
 */
export function run(
  binary: string,
  args: string[],
  options: { timeoutMs?: number; signal?: AbortSignal; lane?: SpawnerLane } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const { child, calls } = startSpawner(options.lane ?? 'media');
    const id = nextId++;
    let aborted: unknown = null;
    const onAbort = () => {
      aborted = signal?.reason ?? new Error('aborted');
      child.send({ op: 'abort', id } satisfies SpawnerRequest, () => undefined);
    };
    const settle = () => signal?.removeEventListener('abort', onAbort);
    calls.set(id, {
      resolve: (r) => {
        settle();
        if (aborted) reject(aborted);
        else resolve(r);
      },
      reject: (error) => {
        settle();
        reject(aborted ?? error);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    child.ref();
    child.channel?.ref();
    child.send(
      { op: 'run', id, binary, args, timeoutMs: options.timeoutMs } satisfies SpawnerRequest,
      (error) => {
        if (!error) return;
        const call = calls.get(id);
        calls.delete(id);
        call?.reject(error);
      },
    );
  });
}

/** The launcher's pid (tests: the binaries are its children, not the server's). */
export function spawnerPid(lane: SpawnerLane = 'media'): number | undefined {
  return startSpawner(lane).child.pid;
}

export interface ProbeResult {
  formatName: string;
  duration: number | null;
  video: { codec: string; width: number; height: number; rotation: number } | null;
  hasAudio: boolean;
}

/**
 * ffprobe's view of a file; throws when ffprobe cannot read it as media. A request waiting on the answer (an
 * upload's check) passes `lane: 'request'`; a job probes in the media lane (see `run`).
 */
export async function probe(
  bins: FfmpegBinaries,
  file: string,
  options: { signal?: AbortSignal; lane?: SpawnerLane } = {},
): Promise<ProbeResult> {
  const { stdout } = await run(
    bins.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    { timeoutMs: 30_000, ...options },
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
