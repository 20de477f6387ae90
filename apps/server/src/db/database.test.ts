import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { expect, it } from 'vitest';
import { openDatabase } from './database.ts';

const adminUrl = process.env.DATABASE_URL;

/**
 * A test that opens a new embedded database through `openDatabase` waits for PGlite's initdb and every migration:
 * 7–10 s alone, over 30 s beside CI's other suites on a loaded 2-core machine. They check settings, not speed.
 */
const NEW_EMBEDDED_DATABASE_MS = 180_000;

it.runIf(adminUrl)(
  'an idle connection killed by PostgreSQL is logged, not fatal, and the pool recovers',
  async () => {
    const name = `kadr_test_pool_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl as string);
    url.pathname = `/${name}`;
    const logged: string[] = [];
    const db = await openDatabase({
      databaseUrl: url.toString(),
      pgliteDir: null,
      poolSize: 2,
      log: { error: (_details, message) => logged.push(message) },
    });
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
      // What a restart or `drop database … with (force)` does to an idle pooled connection (57P01).
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      for (let i = 0; i < 100 && logged.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(logged).toEqual(['idle database connection failed']);
      expect(await db.ping()).toBe(true);
    } finally {
      await db.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  },
);

it(
  'an in-memory embedded database (tests, the bench) does not zero-fill new WAL segments either',
  async () => {
    const db = await openDatabase({ databaseUrl: null, pgliteDir: null });
    try {
      const { rows } = await sql<{ wal_init_zero: string }>`show wal_init_zero`.execute(db.kysely);
      expect(rows[0]?.wal_init_zero).toBe('off');
    } finally {
      await db.close();
    }
  },
  NEW_EMBEDDED_DATABASE_MS,
);

it(
  'the embedded database, in memory and on disk, tells triggers it runs one session, plans for cached pages and keeps GIN pending lists short',
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-one-session-'));
    try {
      for (const pgliteDir of [null, dir]) {
        const db = await openDatabase({ databaseUrl: null, pgliteDir });
        try {
          const { rows } = await sql<{ on: string; random: string; pending: string }>`
          select current_setting('kadr.one_session', true) as on, current_setting('random_page_cost') as random,
            current_setting('gin_pending_list_limit') as pending`.execute(db.kysely);
          expect(rows[0]).toEqual({ on: 'on', random: '1.1', pending: '64kB' });
        } finally {
          await db.close();
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
  NEW_EMBEDDED_DATABASE_MS,
);
