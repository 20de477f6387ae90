import { PGlite } from '@electric-sql/pglite';
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Db, openDatabase, pgliteDb } from './database.ts';
import { analyzeChanged, maintainEmbedded, scheduleEmbeddedMaintenance } from './maintenance.ts';

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
  expect(await reltuples('members')).toBe(-1);
  const redo = async () =>
    (await sql<{ lsn: string }>`select redo_lsn::text as lsn from pg_control_checkpoint()`.execute(db.kysely))
      .rows[0]?.lsn;
  const redoBefore = await redo();

  const steps = await maintainEmbedded(db);

  expect(await reltuples('members')).toBe(1000);
  expect(await redo()).not.toBe(redoBefore);
  expect(steps.map((s) => s.step)).toEqual(['vacuum public.members', 'checkpoint']);
  for (const s of steps) expect(s.ms).toBeGreaterThanOrEqual(0);
});

const reltuples = async (table: string) =>
  (
    await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = ${table}`.execute(
      db.kysely,
    )
  ).rows[0]?.n;

it('analyses a table once its row count moved by more than 50 plus a tenth, as autovacuum does', async () => {
  // No rest between analyses here (the next test has it).
  expect(await reltuples('members')).toBe(-1);
  expect((await analyzeChanged(db, 0)).map((s) => s.step)).toEqual(['analyze public.members']);
  expect(await reltuples('members')).toBe(1000);
  expect(await analyzeChanged(db, 0)).toEqual([]);

  // Rows updated in place (counters, receipts) wait for the full pass.
  await receipts(2);
  expect(await analyzeChanged(db, 0)).toEqual([]);
  // 140 new rows on 1,000: under 50 + 100, nothing to do.
  await sql`insert into members select i, 0, '' from generate_series(1001, 1140) i`.execute(db.kysely);
  expect(await analyzeChanged(db, 0)).toEqual([]);
  // 20 more: 160 since the last analysis, over the line.
  await sql`insert into members select i, 0, '' from generate_series(1141, 1160) i`.execute(db.kysely);
  expect((await analyzeChanged(db, 0)).map((s) => s.step)).toEqual(['analyze public.members']);
  expect(await reltuples('members')).toBe(1160);
  // Deleting counts as much as adding.
  await sql`delete from members where id > 900`.execute(db.kysely);
  expect((await analyzeChanged(db, 0)).map((s) => s.step)).toEqual(['analyze public.members']);
  expect(await reltuples('members')).toBe(900);

  // Between passes only the fixed-width columns: the text column's statistics wait for the full pass.
  const analysed = async () =>
    (
      await sql<{
        attname: string;
      }>`select attname from pg_stats where tablename = 'members' order by attname`.execute(db.kysely)
    ).rows.map((r) => r.attname);
  expect(await analysed()).toEqual(['id', 'last_read_id']);
  await maintainEmbedded(db);
  expect(await analysed()).toEqual(['id', 'last_read_id', 'padding']);

  // A restarted PGlite counts from zero: 900 rows read as none, which is no reason to analyse them.
  await sql`select pg_stat_reset()`.execute(db.kysely);
  expect(await analyzeChanged(db, 0)).toEqual([]);
});

it('analyses a table again only after it rested since its last analysis, as autovacuum naps', async () => {
  const rested = () => new Promise((r) => setTimeout(r, 1100));
  // Never analysed: at the first check that finds it changed.
  expect((await analyzeChanged(db, 1000)).map((s) => s.step)).toEqual(['analyze public.members']);
  // Doubled since: over the line, but analysed a moment ago.
  await sql`insert into members select i, 0, '' from generate_series(1001, 2000) i`.execute(db.kysely);
  expect(await analyzeChanged(db, 1000)).toEqual([]);
  expect(await reltuples('members')).toBe(1000);
  // A full pass counts as an analysis too.
  await rested();
  await maintainEmbedded(db);
  expect(await reltuples('members')).toBe(2000);
  await sql`insert into members select i, 0, '' from generate_series(2001, 4000) i`.execute(db.kysely);
  expect(await analyzeChanged(db, 1000)).toEqual([]);
  // Once the last analysis is older than the rest, the check analyses it.
  await rested();
  expect((await analyzeChanged(db, 1000)).map((s) => s.step)).toEqual(['analyze public.members']);
  expect(await reltuples('members')).toBe(4000);
  // The server's rest is autovacuum's nap.
  await sql`insert into members select i, 0, '' from generate_series(4001, 8000) i`.execute(db.kysely);
  await rested();
  expect(await analyzeChanged(db)).toEqual([]);
});

it('analyses a table last analysed empty as soon as it grows, without resting', async () => {
  // A new community: its tables analysed while empty, then its first chats made within the minute.
  await sql`create table chats (id int primary key)`.execute(db.kysely);
  await sql`analyze chats`.execute(db.kysely);
  expect(await reltuples('chats')).toBe(0);
  await sql`insert into chats select i from generate_series(1, 1000) i`.execute(db.kysely);
  expect((await analyzeChanged(db)).map((s) => s.step)).toContain('analyze public.chats');
  expect(await reltuples('chats')).toBe(1000);
  // With statistics that see its rows, it rests again before the next analysis.
  await sql`insert into chats select i from generate_series(1001, 3000) i`.execute(db.kysely);
  expect((await analyzeChanged(db)).map((s) => s.step)).not.toContain('analyze public.chats');
});

it("replaces a trigger's plan made on an empty table once the table has grown", async () => {
  // A statement trigger like the messenger's: its statement is planned at its first run and kept.
  const pglite = new PGlite({ extensions: { auto_explain } });
  const grown = pgliteDb(pglite);
  try {
    await pglite.exec(`
      create table chats (id int primary key, total int not null default 0);
      create table sent (chat_id int not null);
      create function sent_counted() returns trigger language plpgsql as $$
      begin
        update chats c set total = c.total + x.n
        from (select chat_id, count(*)::int as n from ins group by chat_id) x where c.id = x.chat_id;
        return null;
      end $$;
      create trigger sent_counted after insert on sent referencing new table as ins
        for each statement execute function sent_counted();
      analyze;`);
    // Each its own transaction: the first send plans on one chat, then the chats grow to 5,000.
    await pglite.exec('insert into chats values (1)');
    await pglite.exec('insert into sent values (1)');
    await pglite.exec('insert into chats select i from generate_series(2, 5000) i');
    await pglite.exec(`
      load 'auto_explain';
      set auto_explain.log_min_duration = 0;
      set auto_explain.log_nested_statements = on;
      set client_min_messages = log;`);
    const triggerPlan = async () => {
      const plans: string[] = [];
      await pglite.query('insert into sent values (4000)', [], {
        onNotice: (n) => {
          if (n.message?.includes('update chats')) plans.push(n.message);
        },
      });
      return plans.join('\n');
    };
    expect(await triggerPlan()).toMatch(/Seq Scan on chats/);

    expect((await analyzeChanged(grown, 0)).map((s) => s.step)).toContain('analyze public.chats');
    const plan = await triggerPlan();
    expect(plan).toMatch(/Index Scan using chats_pkey/);
    expect(plan).not.toMatch(/Seq Scan on chats/);
  } finally {
    await grown.close();
  }
});

it('looks for tables to analyse on its own, shorter timer between full passes', async () => {
  const upkeep = scheduleEmbeddedMaintenance(db, 60 * 60 * 1000, { info: () => {}, warn: () => {} }, 20);
  try {
    for (let i = 0; i < 200 && (await reltuples('members')) !== 1000; i += 1)
      await new Promise((r) => setTimeout(r, 10));
    expect(await reltuples('members')).toBe(1000);
  } finally {
    await upkeep.stop();
  }
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
