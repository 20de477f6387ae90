import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobQueue } from '../src/jobs/queue.ts';
import { generateVideo } from '../src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { createTestApp, registerUser, type TestApp, tempDir, testDatabase } from './helpers.ts';
import { type Fixtures, filesUnder, MEDIA_TEST_ENV, makeFixtures, upload } from './media-helpers.ts';

let fx: Fixtures;
let longVideo: Buffer;

beforeAll(async () => {
  fx = await makeFixtures();
  // Long enough that transcoding it takes many seconds on this machine.
  const file = await generateVideo(findFfmpeg(), path.join(fx.dir, 'long.mp4'), {
    seconds: 40,
    width: 1280,
    height: 720,
  });
  longVideo = fs.readFileSync(file);
}, 300_000);
afterAll(() => fs.rmSync(fx.dir, { recursive: true, force: true }));

async function postStatus(t: TestApp, id: number) {
  const row = await t.db.kysely
    .selectFrom('posts')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number, stepMs = 25) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Processes whose command line contains `needle` (Linux /proc). */
function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (cmd.includes(needle)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

async function timePhoto(t: TestApp, user: AuthSession, data: Buffer) {
  const started = Date.now();
  const res = await upload(t.app, user.access_token, [{ field: 'files', filename: 'p.jpg', data }]);
  expect(res.statusCode).toBe(202);
  const id = res.json().post.id as number;
  const status = await until(
    () => postStatus(t, id),
    (s) => s === 'done' || s === 'failed',
    120_000,
  );
  expect(status).toBe('done');
  return Date.now() - started;
}

describe('job lanes', () => {
  it('a photo uploaded behind a long video is ready within 2 s of its time alone', async () => {
    const t = await createTestApp({ ...MEDIA_TEST_ENV, JOBS_CONCURRENCY: '1', JOBS_LIGHT_CONCURRENCY: '1' });
    try {
      const user = await registerUser(t.app);
      const alone = await timePhoto(t, user, fx.night);
      const video = await upload(t.app, user.access_token, [
        { field: 'files', filename: 'v.mp4', data: longVideo },
      ]);
      expect(video.statusCode).toBe(202);
      const videoId = video.json().post.id as number;
      // The video job is running (claimed) before the photo arrives.
      await until(
        () => t.db.kysely.selectFrom('jobs').select('status').where('status', '=', 'running').execute(),
        (rows) => rows.length > 0,
        10_000,
      );
      const behind = await timePhoto(t, user, fx.bright);
      expect(await postStatus(t, videoId)).toBe('processing');
      console.info(`photo alone ${alone} ms, behind a 40 s 720p video ${behind} ms`);
      expect(behind).toBeLessThan(alone + 2000);
    } finally {
      await t.close();
    }
  }, 300_000);

  it('a job past its cap is stopped, its ffmpeg killed, and it fails at once with a reason', async () => {
    const t = await createTestApp({ ...MEDIA_TEST_ENV, JOBS_TIMEOUT_MS: '1500' });
    try {
      const user = await registerUser(t.app);
      const res = await upload(t.app, user.access_token, [
        { field: 'files', filename: 'v.mp4', data: longVideo },
      ]);
      const id = res.json().post.id as number;
      expect(
        await until(
          () => postStatus(t, id),
          (s) => s === 'failed',
          30_000,
        ),
      ).toBe('failed');
      const job = await until(
        () =>
          t.db.kysely
            .selectFrom('jobs')
            .selectAll()
            .where('kind', 'like', 'media.process-%')
            .executeTakeFirstOrThrow(),
        (j) => j.status === 'failed',
        5000,
      );
      expect(job.status).toBe('failed');
      expect(job.attempts).toBe(1);
      expect(job.last_error).toMatch(/cap/);
      // Nothing of the upload keeps running or stays on disk.
      expect(
        await until(
          async () => processesWith(t.dataDir),
          (p) => p.length === 0,
          3000,
        ),
      ).toEqual([]);
      expect(
        await until(
          async () => filesUnder(path.join(t.dataDir, 'tmp')),
          (f) => f.length === 0,
          3000,
        ),
      ).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('a scheduled kind has one pending run across nodes and runs again after each run', async () => {
    const shared = await testDatabase();
    const runs: number[] = [];
    const quick = { leaseMs: 1000, pollMs: 20, concurrency: 1, backoffMs: 20, maxBackoffMs: 100 };
    const make = () => {
      const q = jobQueue(shared.db.kysely, quick);
      q.register('test.tick', { run: async () => void runs.push(Date.now()) }, { lane: 'light' });
      return q;
    };
    const [a, b] = [make(), make()];
    try {
      await Promise.all([
        a.schedule('test.tick', 200, { firstInMs: 0 }),
        b.schedule('test.tick', 200, { firstInMs: 0 }),
      ]);
      const pending = await shared.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'queued')
        .execute();
      expect(pending).toHaveLength(1);
      a.start();
      b.start();
      await until(
        async () => runs.length,
        (n) => n >= 3,
        10_000,
      );
      expect(runs.length).toBeGreaterThanOrEqual(3);
      const open = await shared.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('status', 'in', ['queued', 'running'])
        .execute();
      expect(open.length).toBeLessThanOrEqual(1);
      // Pruning removes finished runs older than the retention, and nothing pending. The queues stop first: a run
      // finishing between the prune and the check below would be a finished row the prune never saw.
      await Promise.all([a.stop(), b.stop()]);
      const pruned = await a.prune(0);
      expect(pruned).toBeGreaterThanOrEqual(2);
      const left = await shared.db.kysely.selectFrom('jobs').select('status').execute();
      expect(left.every((j) => j.status === 'queued' || j.status === 'running')).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await shared.drop();
    }
  }, 60_000);
});

describe('ffmpeg and the server', () => {
  it('ffmpeg dies within 2 s of a kill -9 of the process that started it', async () => {
    const token = `kadr-orphan-${randomUUID()}`;
    const dir = tempDir('kadr-orphan-');
    const script = path.join(dir, 'runner.mts');
    const ffmpegModule = path.resolve(import.meta.dirname, '../src/modules/media/processing/ffmpeg.ts');
    fs.writeFileSync(
      script,
      `import { findFfmpeg, run } from ${JSON.stringify(ffmpegModule)};
const bins = findFfmpeg();
setTimeout(() => console.log('started'), 300);
await run(bins.ffmpeg, ['-hide_banner', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=d=600', '-metadata', 'comment=${token}', '-f', 'null', '-']);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: path.resolve(import.meta.dirname, '..'),
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
        child.on('exit', () => reject(new Error('runner exited early')));
      });
      const ffmpeg = await until(
        async () => processesWith(token),
        (p) => p.length > 0,
        5000,
      );
      expect(ffmpeg.length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      const left = await until(
        async () => processesWith(token),
        (p) => p.length === 0,
        2000,
      );
      expect(left).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      for (const pid of processesWith(token)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
