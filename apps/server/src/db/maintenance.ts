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

/** A step longer than this is logged as a warning: it held every request for that long. */
const SLOW_STEP_MS = 200;

/**
 * Runs `maintainEmbedded` every `everyMs` on a PGlite database (PostgreSQL does its own). The embedded
 * database belongs to one process (the data directory lock), so a timer in that process is the right owner:
 * no job row, no other node to coordinate with. `stop()` waits for a pass in progress.
 */
export function scheduleEmbeddedMaintenance(db: Db, everyMs: number, log: MaintenanceLogger) {
  if (db.engine !== 'pglite' || everyMs <= 0) return { stop: async () => undefined };
  let current: Promise<void> | null = null;
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
  const timer = setInterval(() => {
    if (current) return;
    current = pass().finally(() => {
      current = null;
    });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
