import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import autocannon from 'autocannon';
import { compileOptions } from '../scripts/build-server.mjs';
import { serverFlags } from '../scripts/serve-env.mjs';
import type { BenchMessage, BenchTarget } from './server.ts';

export interface Target {
  target: BenchTarget;
  child: ChildProcess;
  request<T extends BenchMessage['type']>(
    type: T,
    extra?: Record<string, unknown>,
  ): Promise<Extract<BenchMessage, { type: T }>>;
  stop(): Promise<void>;
}

const compiled = new Map<string, Promise<string>>();

/**
 * bench/server.ts (the app with the bench's hooks) compiled as `npm start`'s server is (scripts/build-server.mjs):
 * one ES module beside the server's bundle, the workspace's TypeScript in it and npm packages left as imports. Run
 * through tsx instead, the same app held 68 MiB of live heap after a full collection against 55 MiB compiled (tsx's
 * loader, the TypeScript sources and their transforms), which every mark-compact of the server marks. Once per
 * checkout and process; `root`'s own build script first makes the media helpers' bundles the app starts.
 */
function compiledBenchServer(root: string): Promise<string> {
  const known = compiled.get(root);
  if (known) return known;
  const building = (async () => {
    // Its "up to date" line is noise here; a failed build's error is what the person running the bench needs.
    execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const outfile = path.join(root, 'apps/server/dist/bench-server.mjs');
    const esbuild = await import('esbuild');
    await esbuild.build({
      ...compileOptions(path.join(root, 'bench/server.ts'), outfile),
      plugins: [
        {
          name: 'npm-packages-external',
          setup(build) {
            // A bare specifier is an npm package (or node:), loaded from node_modules at run time, except the
            // workspace's own packages, which are TypeScript and compiled in.
            build.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@kadr/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    return outfile;
  })();
  compiled.set(root, building);
  return building;
}

/**
 * Starts bench/server.ts, compiled, in a child process (so the load generator never shares its event loop). `root` is
 * the checkout whose server runs: this one by default, or an older commit's tree the reach bench compares with.
 * `flags`: V8 flags for the server beyond the bench's own (the sockets bench passes `npm start`'s).
 */
export async function startTarget(
  env: Record<string, string>,
  root = path.join(import.meta.dirname, '..'),
  // The server as `npm start` runs it: its V8 flags decide how fast PGlite's WASM runs and how the heap grows.
  flags: string[] = serverFlags(root, process.env),
): Promise<Target> {
  const child = fork(await compiledBenchServer(root), [], {
    cwd: root,
    execArgv: [
      '--expose-gc',
      '--max-old-space-size=4096',
      ...flags,
      // BENCH_SERVER_TRACE_GC=1: V8 prints each collection's pause (a latency tail is often one).
      ...(process.env.BENCH_SERVER_TRACE_GC ? ['--trace-gc'] : []),
      // BENCH_SERVER_FLAGS="--flag …": more V8 flags for the server, to try one against the same bench.
      ...(process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
      // BENCH_SERVER_PROFILE=<dir>: a V8 CPU profile of the server process, to see where its time goes.
      ...(process.env.BENCH_SERVER_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
        : []),
    ],
    // BENCH_LOG_LEVEL=error (or another pino level) shows the server's log, silent by default.
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const target = await new Promise<BenchTarget>((resolve, reject) => {
    child.once('message', (m: BenchMessage) =>
      m.type === 'ready' ? resolve(m.target) : reject(new Error('unexpected message')),
    );
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    target,
    child,
    request(type, extra) {
      return new Promise((resolve) => {
        const handler = (m: BenchMessage) => {
          if (m.type !== type) return;
          child.off('message', handler);
          resolve(m as never);
        };
        child.on('message', handler);
        child.send({ ...extra, type });
      });
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

export interface LoadResult {
  rps: number;
  /** Requests completed in the whole run. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  options: { connections?: number; duration?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.duration ?? 8,
    headers: options.headers ?? {},
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function row(cells: Array<string | number>): string {
  return cells
    .map((c) => (typeof c === 'number' ? c.toFixed(c < 10 ? 2 : 0) : c).toString().padEnd(14))
    .join(' ');
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; NaN elsewhere). Divided by the
 * requests served it gives a cost per request that a machine shared with other work distorts far less
 * than requests per second do.
 */
export function cpuMs(pid: number | undefined): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU time (ms) of a process's main thread alone: its event loop, without GC helpers and other threads. */
export function mainThreadCpuMs(pid: number | undefined): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * How long a process's main thread has waited for a core so far (ms): runnable but not running, Linux's run-queue
 * delay from /proc (NaN where it cannot be read). Over a window, beside that thread's CPU time, it tells a loop that
 * was busy from one that stood in the scheduler's queue behind other threads on the machine.
 */
export function mainThreadWaitMs(pid: number | undefined): number {
  try {
    // schedstat: time on a core, time waiting on a run queue (both ns), time slices run.
    const waited = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waited) ? waited / 1e6 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Every live process's parent, from /proc; null where /proc cannot be read (not Linux). */
export function processParents(): Map<number, number> | null {
  const parents = new Map<number, number>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
        parents.set(Number(entry), ppid);
      } catch {
        // the process ended while the list was read
      }
    }
  } catch {
    return null;
  }
  return parents;
}

/**
 * CPU time (ms) of a process and its live descendants (the server's media and labeling workers, ffmpeg), from
 * /proc; NaN elsewhere.
 */
export function treeCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const parents = processParents();
  if (!parents) return Number.NaN;
  const inTree = (candidate: number): boolean => {
    for (let at: number | undefined = candidate; at !== undefined && at > 1; at = parents.get(at))
      if (at === pid) return true;
    return false;
  };
  let total = 0;
  for (const candidate of parents.keys()) if (inTree(candidate)) total += cpuMs(candidate) || 0;
  return total;
}

/**
 * Waits until a process tree has gone quiet (under `quietMs` of CPU in each of two 1-second windows, at most
 * `limitMs`): what a seed started in the background (media processing, the labeler) must not run beside a
 * measurement of something else.
 */
export async function settled(pid: number | undefined, quietMs = 50, limitMs = 180_000): Promise<void> {
  const until = Date.now() + limitMs;
  let quiet = 0;
  let before = treeCpuMs(pid);
  while (quiet < 2 && Date.now() < until && Number.isFinite(before)) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = treeCpuMs(pid);
    quiet = now - before < quietMs ? quiet + 1 : 0;
    before = now;
  }
}

/** user + system CPU of a `/proc/…/stat` file, ms; NaN when it cannot be read. */
function statCpuMs(file: string): number {
  try {
    const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return Number.NaN;
  }
}

/** The p-th percentile of the values (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Waits until the app at `base` answers its health check; fails when its process exits first. */
export async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  // A fresh embedded database migrates at start: minutes on a loaded machine (docs/PITFALLS.md).
  for (let i = 0; i < 1800; i++) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}${apiUrl(healthEndpoints.get)}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('app did not become healthy');
}

export interface BenchSession {
  access_token: string;
  user: { id: number; username: string; name: string };
}

/** Registers a bench user on the app at `base`. */
export async function registerAt(base: string, username: string, name = username): Promise<BenchSession> {
  const res = await fetch(`${base}${apiUrl(authEndpoints.register)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: username.slice(0, 32), name, password: 'bench-password-1' }),
  });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()) as BenchSession;
}

export interface NetworkProfile {
  name: string;
  /** CDP Network.emulateNetworkConditions; null = the loopback as it is. */
  conditions: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
}

/** The links the browser benches measure on: the loopback as it is, and a good mobile link (40 ms, 20 Mbit/s). */
export const NETWORKS: NetworkProfile[] = [
  { name: 'loopback', conditions: null },
  {
    name: '4g-like',
    conditions: { latency: 40, downloadThroughput: 2_500_000, uploadThroughput: 1_000_000 },
  },
];

/**
 * The app as `npm start` runs it (scripts/start.mjs, production, warnings only) on 127.0.0.1:`port` with its data
 * in `dataDir`, and no media plane: no LiveKit beside other engineers' ones (docs/PITFALLS.md).
 */
export function startApp(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  const root = path.resolve(import.meta.dirname, '..');
  return spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      LIVEKIT_BIN: path.join(dataDir, 'no-livekit'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
