import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiUrl, healthRoutes } from '@kadr/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBundle } from '../../../scripts/build-server.mjs';
import { DataDirLockedError, LOCK_NAME, lockDataDir } from '../src/storage/data-dir-lock.ts';
import { tempDir } from './helpers.ts';

// @embedded-database-only: every server this file starts runs on the embedded PGlite (DATABASE_URL emptied), so
// the PostgreSQL run leaves it out (scripts/server-pg-tests.mjs).

/** A PID that certainly belongs to no process now: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

function writeLock(dir: string, contents: object) {
  fs.writeFileSync(path.join(dir, LOCK_NAME), JSON.stringify(contents));
}

describe('the embedded data directory lock', () => {
  it('refuses a second holder, naming the first, until the first releases it', () => {
    const dir = tempDir();
    const first = lockDataDir(dir);
    let refused: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toContain(`PID ${process.pid}`);
    expect((refused as Error).message).toContain(dir);
    first.release();
    expect(fs.existsSync(first.file)).toBe(false);
    lockDataDir(dir).release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock whose process is gone', () => {
    const dir = tempDir();
    writeLock(dir, { pid: deadPid(), started: null, host: os.hostname(), token: 'old' });
    const lock = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    lock.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock whose PID now belongs to another process (PID reuse, a restarted container)', () => {
    const dir = tempDir();
    // Our parent runs, but it started at another time than the lock says.
    writeLock(dir, { pid: process.ppid, started: '1', host: os.hostname(), token: 'old' });
    lockDataDir(dir).release();
    // The same process id as ours, written by an earlier incarnation (not a lock this process holds).
    writeLock(dir, { pid: process.pid, started: null, host: os.hostname(), token: 'earlier' });
    lockDataDir(dir).release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a lock held by a live process with the recorded start time', () => {
    const dir = tempDir();
    const started = fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const ticks = started.slice(started.lastIndexOf(')') + 2).split(' ')[19];
    writeLock(dir, { pid: process.ppid, started: ticks, host: os.hostname(), token: 'parent' });
    expect(() => lockDataDir(dir)).toThrow(`PID ${process.ppid}`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

// The compiled bundle (what `npm start` runs), started with plain node: no TypeScript at run time.
describe('two compiled servers on one DATA_DIR', () => {
  beforeAll(async () => {
    await buildServer();
  }, 120_000);

  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function run(dataDir: string) {
    const child = spawn(process.execPath, ['--enable-source-maps', serverBundle], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LIVEKIT_URL: '',
        LIVEKIT_BIN: path.join(dataDir, 'none'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const running = async () => {
      await expect
        .poll(() => output, { timeout: 400_000, interval: 100 })
        .toMatch(/Kadr is running at http:\/\/localhost:(\d+)/);
      return Number(/localhost:(\d+)/.exec(output)?.[1]);
    };
    return { child, exited, running, output: () => output };
  }

  it('refuses the second at once with the first one’s PID; the first keeps serving; kill -9 leaves no lock behind that blocks a restart', async () => {
    const dataDir = tempDir();
    const first = run(dataDir);
    const port = await first.running();

    const second = run(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by another Kadr process (PID ${first.child.pid}`);
    expect(second.output()).not.toContain('Kadr is running');
    const health = await fetch(`http://127.0.0.1:${port}${apiUrl(healthRoutes.get)}`);
    expect(health.status).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(true);
    const third = run(dataDir);
    await third.running();
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 1_200_000);
});
