import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase, pgliteDb } from './database.ts';
import { waitWatch } from './wait-watch.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('waitWatch', () => {
  it('answers the age of the oldest call not yet settled, and 0 once all have', async () => {
    let clock = 0;
    const watch = waitWatch(() => clock);
    let finishFirst = () => {};
    const first = watch.track(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    clock = 40;
    let finishSecond = () => {};
    const second = watch.track(() => new Promise<void>((resolve) => (finishSecond = resolve)));
    clock = 100;
    expect(watch.waitingMs()).toBe(100);
    finishFirst();
    await first;
    expect(watch.waitingMs()).toBe(60);
    finishSecond();
    await second;
    expect(watch.waitingMs()).toBe(0);
  });

  it('forgets a call that failed, at once or later', async () => {
    let clock = 0;
    const watch = waitWatch(() => clock);
    expect(() =>
      watch.track(() => {
        throw new Error('no connection');
      }),
    ).toThrow('no connection');
    await expect(watch.track(() => Promise.reject(new Error('syntax')))).rejects.toThrow('syntax');
    clock = 1000;
    expect(watch.waitingMs()).toBe(0);
  });
});

describe('the embedded database', () => {
  let db: Db;
  beforeAll(async () => {
    const pglite = new PGlite();
    await pglite.waitReady;
    db = pgliteDb(pglite);
    await sql`create table t (v text)`.execute(db.kysely);
  });
  afterAll(() => db.close());

  it('counts statements queued behind an open transaction, and nothing once the queue is empty', async () => {
    expect(db.waitingMs()).toBe(0);
    let release = () => {};
    const open = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into t values ('in the transaction')`.execute(trx);
      await new Promise<void>((resolve) => (release = resolve));
      throw new Error('rolled back');
    });
    await pause(20);
    const queued = sql`insert into t values ('queued')`.execute(db.kysely);
    await pause(200);
    const waited = db.waitingMs();
    release();
    await expect(open).rejects.toThrow('rolled back');
    await queued;
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(db.waitingMs()).toBe(0);
    // The queue kept the statement out of the transaction: the rollback took only the transaction's row.
    expect((await sql<{ v: string }>`select v from t`.execute(db.kysely)).rows).toEqual([{ v: 'queued' }]);
  });

  it('hands the one connection to one caller at a time, in the order asked', async () => {
    const order: string[] = [];
    await Promise.all([
      db.kysely.transaction().execute(async (trx) => {
        order.push('first begins');
        await pause(30);
        await sql`select 1`.execute(trx);
        order.push('first ends');
      }),
      sql`select 2`.execute(db.kysely).then(() => order.push('second')),
      db.kysely.transaction().execute(async () => {
        order.push('third');
      }),
    ]);
    expect(order).toEqual(['first begins', 'first ends', 'second', 'third']);
  });
});

const adminUrl = process.env.DATABASE_URL;

it.runIf(adminUrl)('on PostgreSQL counts only the wait for a pooled connection', async () => {
  const one = await openDatabase({ databaseUrl: adminUrl as string, pgliteDir: null, poolSize: 1 });
  const two = await openDatabase({ databaseUrl: adminUrl as string, pgliteDir: null, poolSize: 2 });
  try {
    for (const db of [one, two]) {
      const slow = sql`select pg_sleep(0.3)`.execute(db.kysely);
      const next = sql`select 1 as one`.execute(db.kysely);
      await pause(200);
      // One connection: the next statement waits for it. Two: a slow statement on the other delays no one.
      // Its wait starts once the pool takes the request, which a loaded machine (a CI rehearsal at load 6.5)
      // delayed by 50 ms: 149.8 of the 200 ms. Well over zero is the point; 100 leaves that margin.
      if (db === one) expect(db.waitingMs()).toBeGreaterThanOrEqual(100);
      else expect(db.waitingMs()).toBe(0);
      await Promise.all([slow, next]);
      expect(db.waitingMs()).toBe(0);
    }
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});
