import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import { PGliteOneCallDialect } from './pglite-driver.ts';
import { pgliteTemplate } from './pglite-template.ts';
import { pgliteWasmOptions } from './pglite-wasm.ts';
import type { Database } from './schema.ts';
import { type WaitWatch, waitWatch, watchedDialect } from './wait-watch.ts';

export type DbEngine = 'pglite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: DbEngine;
  /**
   * How long the oldest statement still waiting for the database has waited, ms: queued behind the others
   * on PGlite, waiting for a pooled connection on PostgreSQL. Backpressure refuses work past a bound of it.
   */
  waitingMs(): number;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where connection trouble is reported: a pino logger (`app.log`) fits. */
export interface DbLogger {
  error(details: object, message: string): void;
}

const consoleLogger: DbLogger = { error: (details, message) => console.error(message, details) };

export interface DbOptions {
  /** PostgreSQL URL; when null the embedded PGlite is used. */
  databaseUrl: string | null;
  /** Directory for PGlite's files; null keeps PGlite in memory (tests). */
  pgliteDir: string | null;
  poolSize?: number;
  /** Reports errors of idle pooled connections; console when absent. */
  log?: DbLogger;
}

// Timestamps come back as Date from both engines; bigint counts as numbers.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    // An idle connection that dies (PostgreSQL restarted, the backend terminated by an administrator) is
    // emitted here; without a listener that event would crash the process. The pool replaces the
    // connection on the next query, so logging is all there is to do.
    const log = options.log ?? consoleLogger;
    pool.on('error', (err) => log.error({ err }, 'idle database connection failed'));
    const watch = waitWatch();
    const kysely = new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool }), watch) });
    return wrap(kysely, 'postgres', watch);
  }
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  // A new directory starts from the shipped template when it fits this PGlite (pglite-template.ts).
  const template =
    options.pgliteDir && !fs.existsSync(path.join(options.pgliteDir, 'PG_VERSION'))
      ? pgliteTemplate(PGLITE_SHARED_BUFFERS)
      : null;
  // Postgres' module with its hot functions marked for the optimizing compiler (pglite-wasm.ts), when the server runs
  // with the flag for it.
  const wasm = await pgliteWasmOptions();
  const pglite = options.pgliteDir
    ? new PGlite(path.resolve(options.pgliteDir), {
        ...wasm,
        extensions: pgliteExtensions,
        startParams: pgliteStartParams,
        ...(template
          ? { loadDataDir: template }
          : // initdb runs its bootstrap with the same pool, and writes it into the new postgresql.conf.
            { initDbStartParams: ['--set', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] }),
      })
    : new PGlite({ ...wasm, extensions: pgliteExtensions, startParams: pgliteMemoryStartParams });
  await pglite.waitReady;
  return pgliteDb(pglite);
}

/**
 * The embedded database's server settings: PGlite's own, with 16 MB of shared buffers instead of PostgreSQL's
 * 128 MB. Postgres touches its whole buffer pool as it starts, so all of it was the server's RSS from the first
 * second (docs/adr/0041-start-memory.md); the data files are read through the kernel's page cache, which a
 * smaller pool falls back on and which does not count in the process's RSS.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * New write-ahead log segments are not filled with zeros first. Postgres wrote 16 MB of zeros into each new
 * segment inside whichever statement crossed into it: on PGlite that statement took 61–68 ms, every ~16,000
 * sends, while every socket waited (a one-row insert's p50 is 0.5 ms). Off, the segment is made at its size in
 * one step and no insert of 30,000 took over 15 ms. A segment's zeros only reserved space ahead on file
 * systems that need it; recovery reads WAL up to the first invalid record either way.
 */
const pgliteWal = ['-c', 'wal_init_zero=off'];

/**
 * PGlite runs one session: no other transaction can hold or wait for a row. Triggers read this to skip the row
 * locks that order concurrent writers on PostgreSQL (groups/migrations.ts, 0302).
 */
const pgliteOneSession = ['-c', 'kadr.one_session=on'];

/**
 * PGlite's pages are read from its buffers or the kernel's page cache, where a random read costs about what a
 * sequential one does: `random_page_cost` 1.1 (the usual setting for SSDs and cached data) instead of 4, which
 * assumes a spinning disk. With 4 the planner scanned all 2,000 members of the bench's chats for an 8-row
 * delivery-ack update (0.72 ms on Liftoff) instead of 8 index probes (0.37 ms).
 */
const pgliteCachedPages = ['-c', 'random_page_cost=1.1'];

/**
 * A GIN index (the messages' Russian full text, the search's trigrams) first appends new entries to a pending
 * list and merges the list into the index once it outgrows `gin_pending_list_limit`, inside whichever insert
 * crossed it; a vacuum merges what is there. On PostgreSQL autovacuum keeps the lists short in the background.
 * PGlite has none: with the default 4 MB, one send in every ~33,000 Russian messages merged the whole list
 * (218 ms on Liftoff, every socket waiting), and the upkeep's vacuum merged what had gathered since the last
 * pass (69 ms after 12,000). With 64 kB the merges are small and frequent: the longest of 18,000 sends took
 * 6.2 ms, and the mean insert batch cost about the same (0.905 against 0.873 ms, 3 rows; 0.968 with no list).
 */
const pgliteGinPending = ['-c', 'gin_pending_list_limit=64kB'];

/** What every embedded database starts with, on disk and in memory. */
const pgliteSettings = [...pgliteWal, ...pgliteOneSession, ...pgliteCachedPages, ...pgliteGinPending];

export const pgliteStartParams = [
  ...PGlite.defaultStartParams,
  '-c',
  `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
  ...pgliteSettings,
];

/** An in-memory database's (the test suite's, the bench's): PGlite's defaults, but the WAL as on disk. */
export const pgliteMemoryStartParams = [...PGlite.defaultStartParams, ...pgliteSettings];

/** Extensions PGlite must load at start for the migrations' `create extension` (search: trigram similarity). */
export const pgliteExtensions = { pg_trgm };

/** The Db over an open PGlite (the test suite starts each one from a migrated image; see test/helpers.ts). */
export function pgliteDb(pglite: PGlite): Db {
  const watch = waitWatch();
  const kysely = new Kysely<Database>({
    dialect: watchedDialect(new PGliteOneCallDialect(pglite), watch),
  });
  return wrap(kysely, 'pglite', watch);
}

function wrap(kysely: Kysely<Database>, engine: DbEngine, watch: WaitWatch): Db {
  return {
    kysely,
    engine,
    waitingMs: () => watch.waitingMs(),
    async ping() {
      try {
        await sql`select 1`.execute(kysely);
        return true;
      } catch {
        return false;
      }
    },
    close: () => kysely.destroy(),
  };
}

export async function migrateToLatest(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  // Modules land in parallel and pick numbers in their own ranges, so an older database may meet a
  // migration that sorts before one it already ran.
  const migrator = new Migrator({
    db: db.kysely,
    provider: migrationProvider(migrations),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
