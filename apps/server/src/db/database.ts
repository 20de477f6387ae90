import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type DbEngine = 'pglite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: DbEngine;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** PostgreSQL URL; when null the embedded PGlite is used. */
  databaseUrl: string | null;
  /** Directory for PGlite's files; null keeps PGlite in memory (tests). */
  pgliteDir: string | null;
  poolSize?: number;
}

// Timestamps come back as Date from both engines; bigint counts as numbers.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return wrap(kysely, 'postgres');
  }
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  const pglite = options.pgliteDir ? new PGlite(path.resolve(options.pgliteDir)) : new PGlite();
  await pglite.waitReady;
  const kysely = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return wrap(kysely, 'pglite');
}

function wrap(kysely: Kysely<Database>, engine: DbEngine): Db {
  return {
    kysely,
    engine,
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

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
