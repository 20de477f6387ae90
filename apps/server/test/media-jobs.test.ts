import path from 'node:path';
import { apiUrl, mediaRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { jobQueue } from '../src/jobs/queue.ts';
import { bearer, createTestApp, registerUser, testDatabase } from './helpers.ts';
import { count, type Fixtures, filesUnder, MEDIA_TEST_ENV, makeFixtures, upload } from './media-helpers.ts';

let shared: Awaited<ReturnType<typeof testDatabase>>;
let fx: Fixtures;

beforeAll(async () => {
  shared = await testDatabase();
  fx = await makeFixtures();
}, 120_000);
afterAll(async () => {
  await shared?.drop();
});

const quick = { leaseMs: 500, pollMs: 20, concurrency: 1, backoffMs: 20, maxBackoffMs: 100 };

async function jobRow(db: Db, id: number) {
  return db.kysely.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('durable job queue', () => {
  it('a job interrupted by a restart finishes after it', async () => {
    // Node A accepts the upload but its worker never runs (it "crashes" holding the job).
    const a = await createTestApp({ ...MEDIA_TEST_ENV, JOBS_WORKER: 'false' }, { db: shared.db });
    const user = await registerUser(a.app);
    const res = await upload(a.app, user.access_token, [
      { field: 'files', filename: 'i.jpg', data: fx.bright },
    ]);
    expect(res.statusCode).toBe(202);
    const postId = res.json().post.id as number;
    await shared.db.kysely
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 1,
        locked_by: 'dead-node',
        locked_until: new Date(Date.now() - 1000),
      })
      .where('kind', 'like', 'media.process-%')
      .execute();
    // Node B shares the database and the data directory, as a restarted process would.
    const b = await createTestApp({ ...MEDIA_TEST_ENV, DATA_DIR: a.dataDir }, { db: shared.db });
    try {
      await b.app.ctx.media.jobs.idle();
      const post = await b.app.inject({
        method: 'GET',
        url: apiUrl(mediaRoutes.post, { id: postId }),
        headers: bearer(user.access_token),
      });
      expect(post.json().post.status).toBe('done');
      expect(post.json().post.files[0].file_url).toMatch(/^\/files\/media\//);
      const job = await shared.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('kind', 'like', 'media.process-%')
        .executeTakeFirstOrThrow();
      expect(job.status).toBe('done');
      expect(job.attempts).toBe(2);
      expect(filesUnder(path.join(a.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await b.app.close();
      await a.close();
    }
  }, 120_000);

  it('re-running a finished post job is harmless', async () => {
    const t = await createTestApp(MEDIA_TEST_ENV, { db: shared.db });
    try {
      const user = await registerUser(t.app);
      const res = await upload(t.app, user.access_token, [
        { field: 'files', filename: 'i.jpg', data: fx.night },
      ]);
      const postId = res.json().post.id as number;
      await t.app.ctx.media.jobs.idle();
      const before = filesUnder(path.join(t.dataDir, 'media')).sort();
      const profile = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: apiUrl(profileRoutes.get, { username: user.user.username }),
            headers: bearer(user.access_token),
          })
        ).json();
      expect((await profile()).posts_count).toBe(1);
      const job = await shared.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('kind', 'like', 'media.process-%')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await shared.db.kysely
        .updateTable('jobs')
        .set({ status: 'queued', run_at: new Date() })
        .where('id', '=', job.id)
        .execute();
      t.app.ctx.media.jobs.notify();
      await t.app.ctx.media.jobs.idle();
      expect((await jobRow(shared.db, Number(job.id))).status).toBe('done');
      expect(filesUnder(path.join(t.dataDir, 'media')).sort()).toEqual(before);
      expect((await profile()).posts_count).toBe(1);
      const post = await t.app.inject({ method: 'GET', url: apiUrl(mediaRoutes.post, { id: postId }) });
      expect(post.json().post.status).toBe('done');
    } finally {
      await t.close();
    }
  }, 120_000);

  it('retries with backoff, then gives up and records the failure', async () => {
    const q = jobQueue(shared.db.kysely, quick);
    const tries: number[] = [];
    let gaveUp = false;
    q.register<{ n: number }>('test.flaky', {
      async run(job) {
        tries.push(job.attempt);
        throw new Error(`boom ${job.payload.n}`);
      },
      async onGiveUp() {
        gaveUp = true;
      },
    });
    const id = await q.enqueue('test.flaky', { n: 1 }, undefined, 3);
    q.start();
    for (let i = 0; i < 100 && !gaveUp; i++) await new Promise((r) => setTimeout(r, 20));
    await q.stop();
    expect(tries).toEqual([1, 2, 3]);
    const row = await jobRow(shared.db, id);
    expect(row.status).toBe('failed');
    expect(row.last_error).toBe('boom 1');
  });

  it('two workers on one table never run the same job twice', async () => {
    const seen: number[] = [];
    const make = () => {
      const q = jobQueue(shared.db.kysely, { ...quick, concurrency: 2 });
      q.register<{ n: number }>('test.once', {
        async run(job) {
          seen.push(job.payload.n);
          await new Promise((r) => setTimeout(r, 5));
        },
      });
      return q;
    };
    const [q1, q2] = [make(), make()];
    for (let n = 0; n < 30; n++) await q1.enqueue('test.once', { n });
    q1.start();
    q2.start();
    for (let i = 0; i < 200 && seen.length < 30; i++) await new Promise((r) => setTimeout(r, 20));
    await Promise.all([q1.stop(), q2.stop()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    const left = await shared.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'test.once')
      .where('status', '!=', 'done')
      .execute();
    expect(left).toEqual([]);
    expect(await count(shared.db, 'jobs')).toBeGreaterThanOrEqual(30);
  }, 60_000);
});
