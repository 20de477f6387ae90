import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './database.ts';
import { PGliteOneCallDialect } from './pglite-driver.ts';
import { type AnyDatabase as Any, pgliteWithDriver } from './pglite-test-kit.ts';

describe('PGlite in one call per statement', () => {
  let pglite: PGlite;
  let db: Kysely<Any>;
  beforeAll(async () => {
    ({ pglite, db } = await pgliteWithDriver());
    await sql`create table kinds (
      id serial primary key, t text, i int4, b int8, ok bool, at timestamptz, doc jsonb, tags text[],
      nums int4[], raw bytea, n numeric, u uuid, d date
    )`.execute(db);
    await sql`create table uniq (k text primary key)`.execute(db);
  });
  afterAll(() => db.destroy());

  const row = {
    t: 'Привет, "мир"',
    i: 42,
    b: 9007199254740993n,
    ok: false,
    at: new Date('2026-12-02T03:04:05.678Z'),
    doc: { a: [1, 'два', null], b: { c: true } },
    tags: ['один', 'with,comma', 'with"quote', ''],
    nums: [1, 2, 3],
    raw: new Uint8Array([0, 1, 254, 255]),
    n: '12345.6789',
    u: '0b9e1d2c-3f4a-4b5c-8d6e-7f8091a2b3c4',
    d: new Date('2026-12-02T00:00:00Z'),
  };

  it('writes and reads every kind of value as PGlite’s own query does, the first time and the next', async () => {
    for (let time = 0; time < 2; time++) {
      const { id } = await db.insertInto('kinds').values(row).returning('id').executeTakeFirstOrThrow();
      const ours = await db.selectFrom('kinds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const theirs = (await pglite.query('select * from kinds where id = $1', [id])).rows[0];
      expect(ours).toEqual(theirs);
      expect(ours).toMatchObject({
        t: row.t,
        i: 42,
        ok: false,
        doc: row.doc,
        tags: row.tags,
        nums: [1, 2, 3],
      });
      expect((ours.at as Date).toISOString()).toBe('2026-12-02T03:04:05.678Z');
      expect(Array.from(ours.raw as Uint8Array)).toEqual([0, 1, 254, 255]);
      expect(String(ours.b)).toBe('9007199254740993');
    }
    const nulls = await db
      .insertInto('kinds')
      .values({ t: null, doc: null, tags: null })
      .returning(['t', 'doc', 'tags'])
      .executeTakeFirstOrThrow();
    expect(nulls).toEqual({ t: null, doc: null, tags: null });
  });

  it('counts affected rows', async () => {
    const result = await db.updateTable('kinds').set({ ok: true }).where('i', '=', 42).executeTakeFirst();
    expect(result.numUpdatedRows).toBe(2n);
  });

  it('makes one call into the backend for a statement it has seen, two for a new one', async () => {
    const calls = vi.spyOn(pglite, 'execProtocolRawStream');
    try {
      const select = (k: string) => db.selectFrom('uniq').select('k').where('k', '=', k).execute();
      await select('a');
      expect(calls).toHaveBeenCalledTimes(2);
      await select('b');
      expect(calls).toHaveBeenCalledTimes(3);
      await sql`select 1`.execute(db);
      expect(calls).toHaveBeenCalledTimes(5);
      await sql`select 1`.execute(db);
      expect(calls).toHaveBeenCalledTimes(6);
      await sql`set local statement_timeout = 0`.execute(db); // not kept: utility statements run unnamed
      await sql`set local statement_timeout = 0`.execute(db);
      expect(calls).toHaveBeenCalledTimes(8);
    } finally {
      calls.mockRestore();
    }
  });

  it('keeps queries prepared: a statement seen before is sent by name, without its text', async () => {
    const calls = vi.spyOn(pglite, 'execProtocolRawStream');
    try {
      const marker = 'kept_prepared_marker';
      const select = (k: string) =>
        sql<{ k: string }>`select k as ${sql.ref(marker)} from uniq where k = ${k}`.execute(db);
      await select('first');
      calls.mockClear();
      await select('second');
      const sent = Buffer.from(calls.mock.calls[0]?.[0] as Uint8Array).toString('latin1');
      expect(sent).not.toContain(marker);
      const prepared = await pglite.query<{ statement: string }>(
        'select statement from pg_prepared_statements',
      );
      expect(prepared.rows.filter((r) => r.statement.includes(marker))).toHaveLength(1);
    } finally {
      calls.mockRestore();
    }
  });

  it('lets go of prepared statements a schema change may alter: `select *` sees a new column', async () => {
    await sql`create table growing (id int primary key)`.execute(db);
    await db.insertInto('growing').values({ id: 1 }).execute();
    const all = () => db.selectFrom('growing').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await all()).toEqual({ id: 1 });
    await sql`alter table growing add column label text default 'new'`.execute(db);
    // Kept prepared across the change, Postgres would refuse: cached plan must not change result type.
    expect(await all()).toEqual({ id: 1, label: 'new' });
  });

  it('prepares again a statement that a change it could not see altered (DDL in a DO block)', async () => {
    await sql`create table hidden_change (id int primary key)`.execute(db);
    await db.insertInto('hidden_change').values({ id: 1 }).execute();
    const all = () =>
      db.selectFrom('hidden_change').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await all()).toEqual({ id: 1 });
    await sql`do $$ begin alter table hidden_change add column label text default 'seen'; end $$`.execute(db);
    expect(await all()).toEqual({ id: 1, label: 'seen' });
    expect(await all()).toEqual({ id: 1, label: 'seen' });
  });

  it('runs unnamed an ON CONFLICT whose partial arbiter has a parameter, which a generic plan cannot match', async () => {
    await sql`create table one_live (id serial primary key, host int, status text)`.execute(db);
    await sql`create unique index one_live_per_host on one_live (host) where status = 'live'`.execute(db);
    for (let host = 1; host <= 8; host++) {
      const start = () =>
        db
          .insertInto('one_live')
          .values({ host, status: 'live' })
          .onConflict((oc) => oc.column('host').where('status', '=', 'live').doNothing())
          .returning('id')
          .execute();
      expect(await start()).toHaveLength(1);
      expect(await start()).toHaveLength(0); // the host's stream is live already
    }
  });

  it('keeps at most 256 statements prepared, closing the least recently used', async () => {
    const numbered = (n: number) => sql<{ n: number }>`select ${n}::int as n ${sql.raw(`/* lru ${n} */`)}`;
    await numbered(0).execute(db);
    for (let n = 1; n <= 300; n++) {
      await numbered(n).execute(db);
      await numbered(0).execute(db); // used all along: never the least recent
    }
    await sql`select 1 as flush_closes`.execute(db);
    const prepared = (
      await pglite.query<{ statement: string }>('select statement from pg_prepared_statements')
    ).rows;
    expect(prepared.length).toBeLessThanOrEqual(256);
    const texts = prepared.map((r) => r.statement);
    expect(texts.some((t) => t.includes('/* lru 0 */'))).toBe(true);
    expect(texts.some((t) => t.includes('/* lru 300 */'))).toBe(true);
    expect(texts.some((t) => t.includes('/* lru 1 */'))).toBe(false);
    expect((await numbered(1).execute(db)).rows).toEqual([{ n: 1 }]); // prepared again when it comes back
  });

  it('remembers nothing of a statement that failed to parse, and keeps one first prepared in a rolled-back transaction', async () => {
    await expect(sql`selec ${1}`.execute(db)).rejects.toMatchObject({ code: '42601' });
    await expect(sql`selec ${1}`.execute(db)).rejects.toMatchObject({ code: '42601' });
    await db.insertInto('uniq').values({ k: 'counted' }).execute();
    const count = (k: string) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from uniq where k = ${k} /* first in a rollback */`.execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`select count(*)::int as n from uniq where k = ${'counted'} /* first in a rollback */`.execute(
          trx,
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await count('counted')).rows).toEqual([{ n: 1 }]);
    expect((await count('counted')).rows).toEqual([{ n: 1 }]);
  });

  it('forgets the oldest statements’ types once their texts pass a million characters', async () => {
    const calls = vi.spyOn(pglite, 'execProtocolRawStream');
    try {
      const padded = (n: number) =>
        sql`select ${n}::int as n ${sql.raw(`/* ${String(n).repeat(300_000)} */`)}`;
      await padded(1).execute(db);
      await padded(1).execute(db);
      expect(calls).toHaveBeenCalledTimes(3); // new, then remembered
      for (const n of [2, 3, 4]) await padded(n).execute(db); // 1.2 million characters with the first
      calls.mockClear();
      expect((await padded(1).execute(db)).rows).toEqual([{ n: 1 }]);
      expect(calls).toHaveBeenCalledTimes(2); // forgotten: described again
      await padded(4).execute(db);
      expect(calls).toHaveBeenCalledTimes(3); // the newest is still remembered
    } finally {
      calls.mockRestore();
    }
  });

  it('throws PGlite’s errors with their code and constraint, and the next statement runs', async () => {
    await db.insertInto('uniq').values({ k: 'x' }).execute();
    await expect(db.insertInto('uniq').values({ k: 'x' }).execute()).rejects.toMatchObject({
      code: '23505',
      constraint: 'uniq_pkey',
    });
    await expect(sql`selec 1`.execute(db)).rejects.toMatchObject({ code: '42601' });
    await expect(
      db.insertInto('uniq').values({ k: 'not a number' }).returning(sql<number>`k::int`.as('n')).execute(),
    ).rejects.toMatchObject({ code: '22P02' });
    expect(await db.selectFrom('uniq').select('k').where('k', '=', 'x').execute()).toEqual([{ k: 'x' }]);
  });

  it('commits, rolls back, and keeps savepoints', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('uniq').values({ k: 'committed' }).execute();
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('uniq').values({ k: 'rolled back' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const trx = await db.startTransaction().execute();
    await trx.insertInto('uniq').values({ k: 'kept' }).execute();
    const inner = await trx.savepoint('inner').execute();
    await inner.insertInto('uniq').values({ k: 'undone' }).execute();
    await inner.rollbackToSavepoint('inner').execute();
    await trx.commit().execute();
    const keys = (await db.selectFrom('uniq').select('k').execute()).map((r) => r.k);
    expect(keys).toEqual(expect.arrayContaining(['committed', 'kept']));
    expect(keys).not.toContain('rolled back');
    expect(keys).not.toContain('undone');
  });

  it('refuses to commit a transaction a failed statement aborted, and keeps none of it', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('uniq').values({ k: 'before the failure' }).execute();
    await expect(trx.insertInto('uniq').values({ k: 'before the failure' }).execute()).rejects.toMatchObject({
      code: '23505',
    });
    await expect(trx.commit().execute()).rejects.toMatchObject({ code: '25P02' });
    expect(await db.selectFrom('uniq').select('k').where('k', '=', 'before the failure').execute()).toEqual(
      [],
    );
  });

  it('holds PGlite’s transaction lock for a transaction: a direct query waits for its end', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('uniq').values({ k: 'in flight' }).execute();
    let answered = false;
    const direct = pglite.query<{ k: string }>("select k from uniq where k = 'in flight'").then((r) => {
      answered = true;
      return r.rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answered).toBe(false);
    await trx.commit().execute();
    expect(await direct).toEqual([{ k: 'in flight' }]);
  });

  it('keeps a statement from outside a transaction out of it: it waits for the end and survives a rollback', async () => {
    let outside: Promise<unknown> | undefined;
    let outsideDone = false;
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('uniq').values({ k: 'rolled back' }).execute();
        outside = db
          .insertInto('uniq')
          .values({ k: 'from outside' })
          .execute()
          .then(() => {
            outsideDone = true;
          });
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(outsideDone).toBe(false);
        throw new Error('roll back');
      })
      .catch(() => {});
    await outside;
    const kept = await db
      .selectFrom('uniq')
      .select('k')
      .where('k', 'in', ['rolled back', 'from outside'])
      .execute();
    expect(kept).toEqual([{ k: 'from outside' }]);
  });

  it('hands its one connection to waiting statements in arrival order, a failed one included', async () => {
    await sql`create table arrivals (n int, at serial)`.execute(db);
    const runs = Array.from({ length: 200 }, (_, n) =>
      n % 50 === 7
        ? sql`insert into arrivals (n) values (${n}::int / 0)`.execute(db).catch(() => 'refused')
        : db.insertInto('arrivals').values({ n }).execute(),
    );
    const results = await Promise.all(runs);
    expect(results.filter((r) => r === 'refused')).toHaveLength(4);
    const order = await db.selectFrom('arrivals').select('n').orderBy('at').execute();
    const expected = Array.from({ length: 200 }, (_, n) => n).filter((n) => n % 50 !== 7);
    expect(order.map((r) => r.n)).toEqual(expected);
  });

  it('asks no file sync of an in-memory database (nor of one on disk: see the restart test below)', async () => {
    expect(pglite.fs).toBeInstanceOf(MemoryFS);
    // NODEFS keeps the same empty sync as MEMFS: nothing to call on disk either.
    expect(NodeFS.prototype.syncToFs).toBe(MemoryFS.prototype.syncToFs);
    const syncs = vi.spyOn(pglite, 'syncToFs');
    try {
      await writeAlone(db);
      await writeInTransaction(db);
      expect(syncs).not.toHaveBeenCalled();
    } finally {
      syncs.mockRestore();
    }
  });

  it('forgets parameter types when the schema changes', async () => {
    await sql`create table shifting (v int4)`.execute(db);
    const insert = (v: unknown) => db.insertInto('shifting').values({ v }).execute();
    await insert(5);
    await sql`alter table shifting alter column v type jsonb using to_jsonb(v)`.execute(db);
    await insert({ now: 'json' });
    const values = (await db.selectFrom('shifting').select('v').execute()).map((r) => r.v);
    expect(values).toEqual([5, { now: 'json' }]);
  });
});

/** A statement outside a transaction, into `synced` (made on first use). */
async function writeAlone(db: Kysely<Any>) {
  await sql`create table if not exists synced (k int4)`.execute(db);
  await db.insertInto('synced').values({ k: 1 }).execute();
}

/** Two statements in a transaction, into `synced`. */
async function writeInTransaction(db: Kysely<Any>) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('synced').values({ k: 2 }).execute();
    await trx.insertInto('synced').values({ k: 3 }).execute();
  });
}

it('asks PGlite to sync files after each statement outside a transaction and each transaction, where a sync does work', async () => {
  /** A filesystem whose sync does work (as a browser's IndexedDB one does): counted. */
  class SyncingFS extends MemoryFS {
    syncs = 0;
    override async syncToFs() {
      this.syncs += 1;
    }
  }
  const files = new SyncingFS();
  const db = new Kysely<Any>({ dialect: new PGliteOneCallDialect(new PGlite({ fs: files })) });
  try {
    await writeAlone(db);
    const alone = files.syncs;
    await writeAlone(db);
    expect(files.syncs - alone).toBe(2); // `create table if not exists` and the insert
    const before = files.syncs;
    await writeInTransaction(db);
    expect(files.syncs - before).toBe(1);
  } finally {
    await db.destroy();
  }
}, 120_000);

it('keeps what it committed on disk, in a transaction and outside one, across a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-pglite-driver-'));
  try {
    const first = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    // On disk (NODEFS, which writes each file through) the driver asks PGlite for no sync: what follows is kept anyway.
    const syncs = vi.spyOn(PGlite.prototype, 'syncToFs');
    await sql`create table kept (k text primary key, at timestamptz)`.execute(first.kysely);
    const at = new Date('2026-12-02T04:05:06.789Z');
    await sql`insert into kept values (${'alone'}, ${at})`.execute(first.kysely);
    await first.kysely.transaction().execute(async (trx) => {
      await sql`insert into kept values (${'in a transaction'}, ${at})`.execute(trx);
    });
    await expect(
      first.kysely.transaction().execute(async (trx) => {
        await sql`insert into kept values (${'rolled back'}, ${at})`.execute(trx);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(syncs).not.toHaveBeenCalled();
    syncs.mockRestore();
    await first.close();

    const again = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    try {
      const { rows } = await sql<{ k: string; at: Date }>`select k, at from kept order by k`.execute(
        again.kysely,
      );
      expect(rows).toEqual([
        { k: 'alone', at },
        { k: 'in a transaction', at },
      ]);
    } finally {
      await again.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps what the server runs prepared by name', async () => {
  const db = await openDatabase({ databaseUrl: null, pgliteDir: null });
  try {
    for (let i = 0; i < 3; i += 1) await sql`select ${i}::int as n`.execute(db.kysely);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      db.kysely,
    );
    expect(rows.map((r) => r.statement)).toContain('select $1::int as n');
  } finally {
    await db.close();
  }
  // A new embedded database (initdb and every migration): seconds alone, far longer beside CI's other suites.
}, 180_000);
