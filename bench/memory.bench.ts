// The memory of what `npm start` leaves running: the real `npm start` (npm → sh serve.sh → the compiled server
// and its children: livekit-server, the database preparation child, media processes) on a fresh DATA_DIR with
// PGlite and the embedded LiveKit, as a newcomer runs it. The whole process tree's RSS is sampled from /proc
// every 100 ms from spawn until 20 s after «Kadr is running»; it prints the start-up peak of the tree and of the
// server, the idle tree after settling and each process's idle RSS, beside the aims of issue 35 (idle tree
// ≤ 400 MiB, start peak ≤ 600 MB). MEMORY_BENCH_RUNS (default 3) runs, one at a time; MEMORY_BENCH_IDLE_S the
// settling time. The build is made first (`start.mjs --prepare-only`), outside the figures.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { row } from './lib.ts';

const root = path.resolve(import.meta.dirname, '..');
const SAMPLE_MS = 100;
const IDLE_S = Number(process.env.MEMORY_BENCH_IDLE_S ?? 20);
const RUNS = Number(process.env.MEMORY_BENCH_RUNS ?? 3);
const AIM_IDLE_MIB = 400;
const AIM_PEAK_MB = 600;
const MiB = 1024 * 1024;

interface Proc {
  pid: number;
  kind: string;
  rss: number; // bytes
  hwm: number; // bytes: the kernel's own high-water mark of this process's RSS
}

/** What a process of the tree is, from its command line. */
export function processKind(cmdline: string[]): string {
  const text = cmdline.join(' ');
  if (/livekit-server/.test(text)) return 'livekit-server';
  if (/--(prepare|make)-database/.test(text)) return 'database preparation';
  if (/main\.mjs/.test(text)) return 'server';
  if (/labeler-worker/.test(text)) return 'labeler';
  if (/image-worker/.test(text)) return 'image process';
  if (/media-spawner/.test(text)) return 'media launcher';
  if (/start\.mjs/.test(text)) return 'start.mjs';
  if (/esbuild/.test(text)) return 'esbuild';
  if (/npm-cli|(^|\/)npm( |$)/.test(text)) return 'npm';
  if (/^(\/bin\/)?sh( |$)/.test(text)) return 'sh';
  return path.basename(cmdline[0] ?? '?');
}

function statusBytes(status: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
}

/** Every child of `pid` (all of its threads' children, recursively) with `pid` itself. */
function tree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i] as number;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const kids = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (kids) out.push(...kids.split(' ').map(Number));
      } catch {
        // The thread or process ended between the listing and the read.
      }
    }
  }
  return out;
}

function sample(pid: number): Proc[] {
  const procs: Proc[] = [];
  for (const p of tree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean);
      procs.push({
        pid: p,
        kind: processKind(cmdline),
        rss: statusBytes(status, 'VmRSS'),
        hwm: statusBytes(status, 'VmHWM'),
      });
    } catch {
      // Exited while sampled.
    }
  }
  return procs;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface RunFigures {
  startMs: number;
  peakTree: number;
  peakServer: number; // the server's VmHWM (exact, not sampled)
  peakByKind: Map<string, number>;
  idleTree: number;
  idleByKind: Map<string, number>;
  livekit: boolean;
}

async function runOnce(): Promise<RunFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-memory-'));
  const [port, livekitPort, rtcTcpPort] = [await freePort(), await freePort(), await freePort()];
  const udpStart = 40000 + Math.floor(Math.random() * 20) * 500;
  const nodeBin = path.dirname(process.execPath);
  const started = performance.now();
  // Its own process group, so the whole tree can be stopped at the end whatever npm forwards.
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: '',
      REDIS_URL: '',
      LIVEKIT_URL: '',
      LIVEKIT_PORT: String(livekitPort),
      LIVEKIT_RTC_TCP_PORT: String(rtcTcpPort),
      LIVEKIT_RTC_UDP_PORTS: `${udpStart}-${udpStart + 499}`,
      KADR_SKIP_LIVEKIT_SETUP: '1',
      NODE_ENV: '',
    },
  });
  const pid = npm.pid as number;
  let out = '';
  let readyAt = 0;
  const onData = (d: Buffer) => {
    out += d;
    if (!readyAt && out.includes('Kadr is running')) readyAt = performance.now();
  };
  npm.stdout?.on('data', onData);
  npm.stderr?.on('data', onData);
  let exited = false;
  npm.once('exit', () => {
    exited = true;
  });

  let peakTree = 0;
  const peakByKind = new Map<string, number>();
  const hwmByPid = new Map<number, Proc>();
  let last: Proc[] = [];
  try {
    while (!exited) {
      const procs = sample(pid);
      const total = procs.reduce((sum, p) => sum + p.rss, 0);
      peakTree = Math.max(peakTree, total);
      for (const p of procs) {
        peakByKind.set(p.kind, Math.max(peakByKind.get(p.kind) ?? 0, p.hwm));
        hwmByPid.set(p.pid, p);
      }
      last = procs;
      if (readyAt && performance.now() - readyAt >= IDLE_S * 1000) break;
      if (!readyAt && performance.now() - started > 600_000)
        throw new Error('no «Kadr is running» in 10 min');
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
    if (exited) throw new Error(`npm start exited before the idle sample:\n${out.slice(-3000)}`);
  } finally {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await new Promise((r) => (exited ? r(null) : npm.once('exit', r)));
    // The server closes its children on SIGTERM; anything left of the group goes now.
    await new Promise((r) => setTimeout(r, 1500));
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Nothing left.
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const idleByKind = new Map<string, number>();
  for (const p of last) idleByKind.set(p.kind, (idleByKind.get(p.kind) ?? 0) + p.rss);
  const server = [...hwmByPid.values()].filter((p) => p.kind === 'server');
  return {
    startMs: readyAt - started,
    peakTree,
    peakServer: Math.max(0, ...server.map((p) => p.hwm)),
    peakByKind,
    idleTree: last.reduce((sum, p) => sum + p.rss, 0),
    idleByKind,
    livekit: idleByKind.has('livekit-server'),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function memoryBench(): Promise<string[]> {
  // Build first (web, server, serve.env), so every measured start is the quick one a second `npm start` is.
  const prepared = spawnSync(process.execPath, ['scripts/start.mjs', '--prepare-only'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, KADR_SKIP_LIVEKIT_SETUP: '1' },
  });
  if (prepared.status !== 0) throw new Error('start.mjs --prepare-only failed');
  const runs: RunFigures[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
  const kinds = [...new Set(runs.flatMap((r) => [...r.idleByKind.keys(), ...r.peakByKind.keys()]))];
  const mb = (bytes: number) => bytes / 1e6;
  const mib = (bytes: number) => bytes / MiB;
  const lines = [
    row(['', 'median', 'max', 'aim', 'per run']),
    row([
      'start ms',
      median(runs.map((r) => r.startMs)),
      Math.max(...runs.map((r) => r.startMs)),
      '',
      runs.map((r) => r.startMs.toFixed(0)).join(' '),
    ]),
    row([
      'peak tree MB',
      mb(median(runs.map((r) => r.peakTree))),
      mb(Math.max(...runs.map((r) => r.peakTree))),
      `≤ ${AIM_PEAK_MB}`,
      runs.map((r) => mb(r.peakTree).toFixed(0)).join(' '),
    ]),
    row([
      'peak server MB',
      mb(median(runs.map((r) => r.peakServer))),
      mb(Math.max(...runs.map((r) => r.peakServer))),
      `≤ ${AIM_PEAK_MB}`,
      runs.map((r) => mb(r.peakServer).toFixed(0)).join(' '),
    ]),
    row([
      `idle tree MiB`,
      mib(median(runs.map((r) => r.idleTree))),
      mib(Math.max(...runs.map((r) => r.idleTree))),
      `≤ ${AIM_IDLE_MIB}`,
      runs.map((r) => mib(r.idleTree).toFixed(0)).join(' '),
    ]),
    '',
    row(['process', 'idle MiB (med)', 'peak MB (max)']),
  ];
  for (const kind of kinds) {
    lines.push(
      row([
        kind,
        mib(median(runs.map((r) => r.idleByKind.get(kind) ?? 0))),
        mb(Math.max(...runs.map((r) => r.peakByKind.get(kind) ?? 0))),
      ]),
    );
  }
  if (!runs.every((r) => r.livekit))
    lines.push(
      'livekit-server was not running in every run (no .tools/bin/livekit-server?): the tree lacks it',
    );
  lines.push(
    `idle = ${IDLE_S} s after «Kadr is running»; peaks of a process are its VmHWM; load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  return lines;
}
