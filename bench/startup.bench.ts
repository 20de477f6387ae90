// Start-up time and idle memory of the compiled server (apps/server/dist/main.mjs, what `npm start` runs)
// against the same server run through tsx (TypeScript transpiled at run time, what `npm start` ran before).
// Both start on one already-migrated PGlite directory, one at a time, without LiveKit; each start is timed
// from spawn to the "Kadr is running" line, and its RSS read from /proc after 5 s idle.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverBundle } from '../scripts/build-server.mjs';
import { row } from './lib.ts';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = 5;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startOnce(args: string[], dataDir: string): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LIVEKIT_URL: '',
      LIVEKIT_BIN: path.join(dataDir, 'none'),
      LOG_LEVEL: 'warn',
      JOBS_WORKER: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('Kadr is running')) resolve(performance.now() - started);
      });
      child.stderr?.on('data', (d: Buffer) => {
        out += d;
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
    });
    await new Promise((r) => setTimeout(r, 5000));
    return { ms, rss: rssMiB(child.pid as number) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function startupBench(): Promise<string[]> {
  await buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-startup-'));
  try {
    const variants = {
      compiled: ['--enable-source-maps', serverBundle],
      tsx: ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
    };
    await startOnce(variants.compiled, dataDir); // migrate the directory once, outside the figures
    const figures: Record<string, { ms: number[]; rss: number[] }> = {
      compiled: { ms: [], rss: [] },
      tsx: { ms: [], rss: [] },
    };
    // Interleaved, so a change in the machine's load touches both alike.
    for (let i = 0; i < RUNS; i++) {
      for (const [name, args] of Object.entries(variants)) {
        const r = await startOnce(args, dataDir);
        figures[name]?.ms.push(r.ms);
        figures[name]?.rss.push(r.rss);
      }
    }
    const c = figures.compiled as { ms: number[]; rss: number[] };
    const t = figures.tsx as { ms: number[]; rss: number[] };
    return [
      row(['', 'start ms (med)', 'idle RSS MiB', 'runs']),
      row(['tsx (before)', median(t.ms), median(t.rss), RUNS]),
      row(['compiled', median(c.ms), median(c.rss), RUNS]),
      row(['ratio', median(c.ms) / median(t.ms), median(c.rss) / median(t.rss), '']),
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
