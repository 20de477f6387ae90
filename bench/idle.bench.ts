// What an idle server costs: the compiled server (`npm start`'s, job workers on, no LiveKit) left alone on a fresh
// database, its CPU over a minute after it settled, on PGlite and on PostgreSQL (there with the transactions the
// database counted for it), beside a bare Node HTTP server idle for the same minute (the floor: a process that
// only waits). On PGlite every statement runs in the server's own thread, between the requests it serves.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { row, settled, startApp, treeCpuMs, waitHealthy } from './lib.ts';

const WINDOW_MS = Number(process.env.IDLE_BENCH_WINDOW_MS ?? 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU (ms) of a process tree over the window, once it has settled. */
async function idleCpu(pid: number | undefined, between?: () => Promise<number>) {
  await settled(pid);
  const countBefore = await between?.();
  const before = treeCpuMs(pid);
  await sleep(WINDOW_MS);
  const cpuMs = treeCpuMs(pid) - before;
  const countAfter = await between?.();
  return { cpuMs, count: countBefore === undefined ? undefined : (countAfter as number) - countBefore };
}

async function bare() {
  const child = spawn(
    process.execPath,
    ['-e', "require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1')"],
    { stdio: 'ignore' },
  );
  try {
    return await idleCpu(child.pid);
  } finally {
    await stop(child);
  }
}

async function server(engine: 'pglite' | 'postgres', port: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kadr-bench-idle-'));
  const admin = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kadr_idle_bench_${process.pid}`;
  const adminDb =
    engine === 'postgres' ? await openDatabase({ databaseUrl: admin, pgliteDir: null, poolSize: 1 }) : null;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  if (adminDb) await sql.raw(`create database ${name}`).execute(adminDb.kysely);
  const child = startApp(port, dataDir, { DATABASE_URL: adminDb ? url.toString() : '', REDIS_URL: '' });
  // Transactions committed in the bench's database (the server's own connections are the only ones there).
  const commits = adminDb
    ? async () => {
        const { rows } = await sql<{ n: string }>`
          select xact_commit::text as n from pg_stat_database where datname = ${name}`.execute(
          adminDb.kysely,
        );
        return Number(rows[0]?.n ?? Number.NaN);
      }
    : undefined;
  try {
    await waitHealthy(`http://127.0.0.1:${port}`, child);
    return await idleCpu(child.pid, commits);
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
    if (adminDb) {
      await sql.raw(`drop database if exists ${name} with (force)`).execute(adminDb.kysely);
      await adminDb.close();
    }
  }
}

export async function idleBench(engines: Array<'pglite' | 'postgres'>): Promise<string[]> {
  const perMinute = (ms: number) => (ms * 60_000) / WINDOW_MS;
  const lines = [row(['process', 'cpu ms/min', 'share of a core', 'commits/min'])];
  const floor = await bare();
  lines.push(
    row(['bare node http', perMinute(floor.cpuMs), `${((floor.cpuMs / WINDOW_MS) * 100).toFixed(2)} %`, '']),
  );
  for (const engine of engines) {
    const idle = await server(engine, engine === 'pglite' ? 3181 : 3182);
    lines.push(
      row([
        `kadr ${engine}`,
        perMinute(idle.cpuMs),
        `${((idle.cpuMs / WINDOW_MS) * 100).toFixed(2)} %`,
        idle.count === undefined ? '' : perMinute(idle.count),
      ]),
    );
  }
  return lines;
}
