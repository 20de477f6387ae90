import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { AuthSession } from '@kadr/contract';
import { apiUrl, authRoutes } from '@kadr/contract';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../src/app.ts';
import type { App } from '../src/app-types.ts';
import { loadConfig } from '../src/config.ts';
import {
  type Db,
  migrateToLatest,
  openDatabase,
  pgliteDb,
  pgliteExtensions,
  pgliteMemoryStartParams,
} from '../src/db/database.ts';
import { pgliteWasmOptions } from '../src/db/pglite-wasm.ts';
import type { Database } from '../src/db/schema.ts';
import { moduleMigrations } from '../src/modules/index.ts';

/**
 * The database the suite runs on: in-memory PGlite by default, or — when DATABASE_URL is set — a fresh,
 * uniquely named PostgreSQL database that `drop()` removes again.
 */
export async function testDatabase(): Promise<{ db: Db; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const db = await pgliteFromImage();
    await migrateToLatest(db, moduleMigrations());
    return { db, drop: () => db.close() };
  }
  const name = `kadr_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await createPgDatabase(adminUrl, name, process.env.KADR_PG_TEMPLATE);
  const db = await openDatabase({
    databaseUrl: databaseUrlFor(adminUrl, name),
    pgliteDir: null,
    poolSize: 10,
  });
  await migrateToLatest(db, moduleMigrations());
  return {
    db,
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // The pool's connections say goodbye asynchronously after close(); dropping with force while one
      // is still open would terminate it (57P01). Wait (bounded) until the database has no sessions left.
      for (let i = 0; i < 100; i += 1) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * An in-memory PGlite. PGlite's initdb and the migrations take seconds per database (3–8 s on the 2-core
 * CI machine, with hundreds of databases per run), so the global setup migrates one and dumps its data
 * directory (test/global-setup.ts names it in KADR_PGLITE_IMAGE); each database here starts from that
 * image in under a second. Without the image (a file run outside the global setup) it is built afresh.
 */
async function pgliteFromImage(): Promise<Db> {
  const image = process.env.KADR_PGLITE_IMAGE;
  if (!image || !fs.existsSync(image)) return openDatabase({ databaseUrl: null, pgliteDir: null });
  const pglite = new PGlite({
    ...(await pgliteWasmOptions()),
    loadDataDir: new Blob([fs.readFileSync(image)]),
    extensions: pgliteExtensions,
    startParams: pgliteMemoryStartParams,
  });
  await pglite.waitReady;
  return pgliteDb(pglite);
}

function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates a PostgreSQL database, as a copy of the migrated template when the global setup made one
 * (KADR_PG_TEMPLATE): a copy takes a fraction of running every migration again.
 */
async function createPgDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(
          template ? `create database ${name} template ${template}` : `create database ${name}`,
        );
        return;
      } catch (err) {
        // 55006: another copy from the same template was being made at that moment (parallel workers).
        if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await admin.end();
  }
}

/** Creates the migrated template database the suite's PostgreSQL databases are copied from; returns its dropper. */
export async function createPgTemplate(adminUrl: string, name: string): Promise<() => Promise<void>> {
  await createPgDatabase(adminUrl, name);
  const db = await openDatabase({
    databaseUrl: databaseUrlFor(adminUrl, name),
    pgliteDir: null,
    poolSize: 1,
  });
  await migrateToLatest(db, moduleMigrations());
  await db.close();
  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

/** Writes the migrated PGlite image the suite's databases start from (the global setup calls it). */
export async function writePgliteImage(file: string): Promise<void> {
  const pglite = new PGlite({ extensions: pgliteExtensions, startParams: pgliteMemoryStartParams });
  await pglite.waitReady;
  const db = pgliteDb(pglite);
  await migrateToLatest(db, moduleMigrations());
  const image = await pglite.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  await db.close();
}

export function tempDir(prefix = 'kadr-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestApp {
  app: App;
  db: Db;
  dataDir: string;
  close(): Promise<void>;
}

/** Builds the real app on a test database with the given environment on top of quiet defaults. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: BuildOptions & { db?: Db } = {},
): Promise<TestApp> {
  const dataDir = tempDir();
  const owned = options.db ? null : await testDatabase();
  const db = options.db ?? owned!.db;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...env,
  });
  const app = await buildApp({ ...config, databaseUrl: null }, { ...options, db, migrate: false });
  await app.ready();
  return {
    app,
    db,
    dataDir,
    async close() {
      await app.close();
      if (owned) await owned.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}`.slice(0, 32);
}

export async function registerUser(
  app: App,
  username = uniqueUsername(),
  name = 'Тест Пользователь',
  password = 'correct horse',
): Promise<AuthSession> {
  const res = await app.inject({
    method: 'POST',
    url: apiUrl(authRoutes.register),
    payload: { username, name, password },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return res.json() as AuthSession;
}

/** A route's path as the OpenAPI document names it: without the API prefix, `:name` written `{name}`. */
export const openApiPath = (route: { readonly path: string }) => route.path.replace(/:(\w+)/g, '{$1}');

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** How many rows a table holds (the suites check that a refused request changed nothing). */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
