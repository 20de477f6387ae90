import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Db, openDatabase } from './database.ts';
import { maintainEmbedded, scheduleEmbeddedMaintenance } from './maintenance.ts';

let db: Db;
beforeEach(async () => {
  db = await openDatabase({ databaseUrl: null, pgliteDir: null });
  // What a chat's members look like to the database: few rows, each updated on every delivery and receipt.
  await sql`create table members (id int primary key, last_read_id bigint not null, padding text not null)`.execute(
    db.kysely,
  );
  // An index on the column that changes: no update is HOT, every one leaves a dead version in the table and the index.
  await sql`create index members_read_idx on members (last_read_id)`.execute(db.kysely);
  await sql`insert into members select i, 0, repeat('x', 100) from generate_series(1, 1000) i`.execute(
    db.kysely,
  );
});
afterEach(async () => {
  await db.close();
});

/** Every row updated `rounds` times over, as receipts move members' rows. */
async function receipts(rounds: number) {
  for (let i = 0; i < rounds; i += 1)
    await sql`update members set last_read_id = last_read_id + 1`.execute(db.kysely);
}

const size = async () =>
  (await sql<{ bytes: number }>`select pg_total_relation_size('members')::int as bytes`.execute(db.kysely))
    .rows[0]?.bytes ?? 0;

it('keeps a constantly updated table from growing: dead row versions become free space again', async () => {
  await receipts(20);
  const before = await size();
  // Without upkeep the next twenty rounds need new pages for every version they write.
  await receipts(20);
  const unmaintained = await size();
  expect(unmaintained).toBeGreaterThan(before * 1.5);

  await maintainEmbedded(db);
  const maintained = await size();
  await receipts(20);
  // After a pass the same twenty rounds reuse what vacuum freed instead of adding as much again.
  expect((await size()) - maintained).toBeLessThan((unmaintained - before) / 2);
});

it('gives the planner statistics and ends with a checkpoint, each step timed', async () => {
  const reltuples = async () =>
    (
      await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'members'`.execute(
        db.kysely,
      )
    ).rows[0]?.n;
  expect(await reltuples()).toBe(-1);
  const redo = async () =>
    (await sql<{ lsn: string }>`select redo_lsn::text as lsn from pg_control_checkpoint()`.execute(db.kysely))
      .rows[0]?.lsn;
  const redoBefore = await redo();

  const steps = await maintainEmbedded(db);

  expect(await reltuples()).toBe(1000);
  expect(await redo()).not.toBe(redoBefore);
  expect(steps.map((s) => s.step)).toEqual(['vacuum public.members', 'checkpoint']);
  for (const s of steps) expect(s.ms).toBeGreaterThanOrEqual(0);
});

it('runs on a timer on the embedded database only, and stop waits for a pass in progress', async () => {
  const logged: string[] = [];
  const log = {
    info: (_: object, m: string) => logged.push(m),
    warn: (_: object, m: string) => logged.push(m),
  };
  const upkeep = scheduleEmbeddedMaintenance(db, 20, log);
  for (let i = 0; i < 200 && logged.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
  await upkeep.stop();
  expect(logged[0]).toMatch(/embedded database upkeep/);
  const count = logged.length;
  await new Promise((r) => setTimeout(r, 60));
  expect(logged.length).toBe(count);

  const postgres = { ...db, engine: 'postgres' as const };
  const none = scheduleEmbeddedMaintenance(postgres, 20, log);
  await new Promise((r) => setTimeout(r, 60));
  await none.stop();
  expect(logged.length).toBe(count);
});
