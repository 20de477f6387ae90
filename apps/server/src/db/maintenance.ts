import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** How long one step of a pass held the database (and, on PGlite, the event loop). */
export interface MaintenanceStep {
  step: string;
  ms: number;
}

export interface MaintenanceLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * One pass of the upkeep a PostgreSQL server does in its background processes, for the embedded database.
 * PGlite runs Postgres as a single backend with no postmaster: no autovacuum launcher, no checkpointer, no
 * statistics collector. Without this, every update (a delivery or read receipt moves a member's row, a job's
 * lease is renewed) leaves a dead row version that only in-page pruning ever reclaims, the planner never gets
 * statistics for a table that grew from empty, and the write-ahead log grows to `max_wal_size` (1 GB) until a
 * checkpoint forced inside some request writes every dirty buffer at once — and a crash replays all of it.
 *
 * Each table is vacuumed and analysed on its own, the event loop served between them, so the longest hold is
 * one table's, not the whole database's; then a checkpoint. PGlite's queries run on the main thread, so each
 * step's duration is a stall: they are returned (and logged when long) for the operator and the soak bench.
 */
export async function maintainEmbedded(db: Db): Promise<MaintenanceStep[]> {
  const steps: MaintenanceStep[] = [];
  const timed = async (step: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    steps.push({ step, ms: performance.now() - started });
    await yieldToLoop();
  };
  // The row counts `analyzeChanged` compares with are the counters' as of the analysis: flush them first.
  await sql`select pg_stat_force_next_flush()`.execute(db.kysely);
  // Smallest first: the small, constantly updated tables (members, jobs) gain the most and cost the least.
  const tables = await sql<{ name: string }>`
    select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = 'public'
    order by pg_total_relation_size(c.oid), c.relname`.execute(db.kysely);
  for (const { name } of tables.rows) {
    // Names come from the catalogue, quoted by quote_ident: safe to splice.
    await timed(`vacuum ${name}`, () => sql`vacuum (analyze) ${sql.raw(name)}`.execute(db.kysely));
  }
  await timed('checkpoint', () => sql`checkpoint`.execute(db.kysely));
  return steps;
}

/**
 * A table is analysed between full passes once its row count moved from the last analysis's by more than this
 * many plus a tenth (autovacuum's `autovacuum_analyze_threshold` and `autovacuum_analyze_scale_factor`), and as
 * many changes were counted since. Rows updated in place (the chats' counters on every send) wait for the full
 * pass; the count of changes keeps a restarted PGlite, whose counters all read 0, from seeing every table shrunk.
 */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
/**
 * The statistics target of these in-between analyses: a sample of 300 × 10 rows, not PostgreSQL's 300 × 100.
 * Analysing runs in the server's thread, and the full sample of a growing `messages` took 40–60 ms, a stall for
 * every socket; the smaller one is enough to replace a plan made on an empty table, and the full pass replaces
 * it with the full statistics every few minutes. Only fixed-width columns (ids, flags, times) are analysed
 * between passes: with a column list Postgres also skips index expressions, and the full-text index's
 * `to_tsvector('russian', content)` over the sample was most of the cost (10,000 messages: 36–48 ms for every
 * column, 5–10 ms for the fixed-width ones). Text columns keep their statistics until the next full pass.
 */
const ANALYZE_STATISTICS_TARGET = 10;

/**
 * How long a table analysed (by a check, a full pass or by hand) waits before a check analyses it again:
 * autovacuum's `autovacuum_naptime`, which PostgreSQL also waits between two analyses of one database. A
 * young table under steady writes crosses the line above at every check: at 500 msg/s the bench's `messages`
 * (a few thousand rows) was analysed every 5 s, 4.5–5.5 ms each with every socket waiting, and the sends
 * queued behind it were a third of that phase's slowest hundredth. A table never analysed, or last analysed
 * with no more rows than the threshold, is analysed at the first check that finds it changed: its statistics
 * say it is empty, and the plans made on them scan it whole. A new community's chats are made in its first
 * minute: with the rest, the bench's server ran its first minute of sends on plans made before any chat existed,
 * and the send's insert cost 1.7–1.8 ms a statement in the server against 0.84–0.93 ms once the tables were
 * analysed (docs/adr/0046).
 */
export const ANALYZE_REST_MS = 60_000;

/**
 * Analyses the tables that grew or shrank enough since their last analysis, as PostgreSQL's autovacuum does
 * between full passes. Statistics matter beyond estimates here: a trigger's PL/pgSQL statements keep the plan
 * they were first given until a table they read is analysed. The messenger's insert trigger, planned on a near-empty
 * `conversations`, kept scanning and hashing all of it and of `conversation_members` for every send as they
 * grew: at 1,000 chats its four statements took 0.8–1.9 ms each under auto_explain, against 0.3 ms for all four
 * on an analysed database (docs/adr/0046). Analysing a table invalidates the plans that read it.
 * PGlite's single backend flushes its table counters only when asked, so they are flushed first.
 */
export async function analyzeChanged(db: Db, restMs = ANALYZE_REST_MS): Promise<MaintenanceStep[]> {
  await sql`select pg_stat_force_next_flush()`.execute(db.kysely);
  // The statistics functions for these four figures, not the `pg_stat_user_tables` view, which computes twenty
  // for every table: the check runs every 5 s on the server's thread (0.84 → 0.35 ms on Liftoff, 2–5 ms under
  // the bench's load before).
  const changed = await sql<{ name: string; columns: string | null }>`
    select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
      (select string_agg(quote_ident(a.attname), ', ' order by a.attnum) from pg_attribute a
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attlen > 0) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    cross join lateral (select ${ANALYZE_THRESHOLD} + ${ANALYZE_SCALE} * greatest(c.reltuples, 0) as line) t
    where n.nspname = 'public' and c.relkind in ('r', 'p', 'm')
      and abs(pg_stat_get_live_tuples(c.oid) - greatest(c.reltuples, 0)) > t.line
      and pg_stat_get_mod_since_analyze(c.oid) > t.line
      and (greatest(c.reltuples, 0) <= ${ANALYZE_THRESHOLD}
        or coalesce(greatest(pg_stat_get_last_analyze_time(c.oid), pg_stat_get_last_autoanalyze_time(c.oid)),
          '-infinity') <= clock_timestamp() - make_interval(secs => ${restMs / 1000}::float8))
    order by pg_total_relation_size(c.oid), c.relname`.execute(db.kysely);
  const steps: MaintenanceStep[] = [];
  for (const { name, columns } of changed.rows) {
    const started = performance.now();
    await db.kysely.transaction().execute(async (trx) => {
      await sql`set local default_statistics_target = ${sql.raw(String(ANALYZE_STATISTICS_TARGET))}`.execute(
        trx,
      );
      // Names come from the catalogue, quoted by quote_ident: safe to splice.
      await sql`analyze ${sql.raw(columns ? `${name} (${columns})` : name)}`.execute(trx);
    });
    steps.push({ step: `analyze ${name}`, ms: performance.now() - started });
    await yieldToLoop();
  }
  return steps;
}

/** How often the embedded database looks for tables to analyse between full passes (autovacuum's nap is 60 s). */
export const ANALYZE_CHECK_MS = 5_000;

/** A step longer than this is logged as a warning: it held every request for that long. */
const SLOW_STEP_MS = 200;

/**
 * Runs `maintainEmbedded` every `everyMs` on a PGlite database (PostgreSQL does its own), and `analyzeChanged`
 * every `checkEveryMs` between passes. The embedded database belongs to one process (the data directory lock),
 * so a timer in that process is the right owner: no job row, no other node to coordinate with. `stop()` waits
 * for a pass or a check in progress.
 */
export function scheduleEmbeddedMaintenance(
  db: Db,
  everyMs: number,
  log: MaintenanceLogger,
  checkEveryMs = ANALYZE_CHECK_MS,
) {
  if (db.engine !== 'pglite' || everyMs <= 0) return { stop: async () => undefined };
  let current: Promise<void> | null = null;
  const check = async () => {
    try {
      for (const step of await analyzeChanged(db))
        if (step.ms > SLOW_STEP_MS) log.warn(step, 'embedded database analysis held the server');
    } catch (err) {
      log.warn({ err }, 'embedded database analysis failed');
    }
  };
  const pass = async () => {
    try {
      const steps = await maintainEmbedded(db);
      const total = steps.reduce((sum, s) => sum + s.ms, 0);
      const longest = steps.reduce((a, b) => (b.ms > a.ms ? b : a), { step: '', ms: 0 });
      const details = {
        steps: steps.length,
        totalMs: Math.round(total),
        longest: longest.step,
        longestMs: Math.round(longest.ms),
      };
      if (longest.ms > SLOW_STEP_MS) log.warn(details, 'embedded database upkeep held the server');
      else log.info(details, 'embedded database upkeep');
    } catch (err) {
      log.warn({ err }, 'embedded database upkeep failed');
    }
  };
  // One of the two at a time: a check that comes due during a pass (or the reverse) is skipped.
  const every = (ms: number, run: () => Promise<void>) => {
    const timer = setInterval(() => {
      if (current) return;
      current = run().finally(() => {
        current = null;
      });
    }, ms);
    timer.unref();
    return timer;
  };
  const timers = [every(everyMs, pass), every(checkEveryMs, check)];
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await current;
    },
  };
}
