import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { makesNewDatabase, SERVER_FLAGS, serveEnvText, serverFlags } from '../../../scripts/serve-env.mjs';
import { migrateToLatest, openDatabase, PGLITE_SHARED_BUFFERS } from '../src/db/database.ts';
import { installedPgliteVersion, PGLITE_TEMPLATE_INFO, pgliteTemplate } from '../src/db/pglite-template.ts';
import { makeEmbeddedDatabase } from '../src/make-database.ts';
import { moduleMigrations } from '../src/modules/index.ts';
import { createTestApp, registerUser, tempDir } from './helpers.ts';
import { upload } from './media-helpers.ts';

/**
 * What keeps `npm start`'s memory down (docs/adr/0041-start-memory.md): the server's V8 flags reach it through
 * serve.env and serve.sh, a new embedded database is made before the server starts, PGlite runs with a small
 * buffer pool, and the detector's process is not started with the server but when an upload comes in.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** This process's child processes whose command line mentions `needle`. */
function childrenRunning(needle: string): number[] {
  const pids: number[] = [];
  for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
    const kids = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
    for (const pid of kids ? kids.split(' ').map(Number) : []) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) pids.push(pid);
      } catch {
        // Exited meanwhile.
      }
    }
  }
  return pids;
}

describe('npm start hands the server its memory settings', () => {
  it('serve.env carries the V8 flags that keep the WASM tier-up and the young generation out of the RSS', () => {
    expect(SERVER_FLAGS).toEqual(
      expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=8', '--heap-growing-percent=100']),
    );
    // Node refuses a flag it does not know ("bad option"): each one is V8's, spelled as this Node reads it.
    const run = spawnSync(process.execPath, [...SERVER_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const text = serveEnvText('/opt/node/bin/node', {}, {});
    expect(text).toContain(`KADR_NODE_FLAGS='${SERVER_FLAGS.join(' ')}'`);
    expect(text).not.toContain('KADR_MAKE_DATABASE');
    expect(serveEnvText('/opt/node/bin/node', {}, {}, { makeDatabase: true })).toContain(
      'KADR_MAKE_DATABASE=1',
    );
    // SERVER_MEMORY=fast (environment or .env) drops them: V8 optimizes PGlite's WASM and sizes its heap itself.
    const emptyRoot = tempDir('kadr-server-memory-');
    expect(serverFlags(emptyRoot, {})).toEqual(SERVER_FLAGS);
    expect(serverFlags(emptyRoot, { SERVER_MEMORY: 'fast' })).toEqual([]);
    fs.writeFileSync(path.join(emptyRoot, '.env'), 'SERVER_MEMORY=fast\n');
    expect(serverFlags(emptyRoot, {})).toEqual([]);
    expect(serverFlags(emptyRoot, { SERVER_MEMORY: 'lean' })).toEqual(SERVER_FLAGS);
    expect(serveEnvText('/opt/node/bin/node', {}, {}, { flags: [] })).toContain("KADR_NODE_FLAGS=''");
    // serve.sh passes them to the server and to the step that makes a new database.
    const serve = fs.readFileSync(path.join(repoRoot, 'scripts/serve.sh'), 'utf8');
    expect(serve).toMatch(/\$KADR_NODE_FLAGS apps\/server\/dist\/make-database\.mjs/);
    expect(serve).toMatch(
      /exec "\$KADR_NODE" --enable-source-maps \$KADR_NODE_FLAGS apps\/server\/dist\/main\.mjs/,
    );
  });

  it('a new database is made before the server only when there is none yet', () => {
    const dataDir = tempDir('kadr-start-memory-');
    try {
      const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
      expect(makesNewDatabase(repoRoot, env)).toBe(true);
      expect(makesNewDatabase(repoRoot, { ...env, DATABASE_URL: 'postgres://x@127.0.0.1/kadr' })).toBe(false);
      fs.mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'pg', 'PG_VERSION'), '17\n');
      expect(makesNewDatabase(repoRoot, env)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the embedded database on disk', () => {
  const dir = tempDir('kadr-pglite-buffers-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs with 16 MB of shared buffers from its first start on (PostgreSQL would touch 128 MB at start), WAL segments not zero-filled', async () => {
    const db = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db.kysely);
      expect(rows[0]?.shared_buffers).toBe('16MB');
      // A new WAL segment is not zero-filled inside some request (database.ts, pgliteWal).
      const wal = await sql<{ wal_init_zero: string }>`show wal_init_zero`.execute(db.kysely);
      expect(wal.rows[0]?.wal_init_zero).toBe('off');
    } finally {
      await db.close();
    }
    expect(fs.readFileSync(path.join(dir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 16MB/m);
  }, 300_000);

  it('a new directory is the shipped template (no initdb on this machine), made by the PGlite installed', async () => {
    const info = JSON.parse(fs.readFileSync(PGLITE_TEMPLATE_INFO, 'utf8')) as { pglite: string };
    // Upgrading PGlite without `npm run pglite:template` fails here (new directories would fall back to initdb).
    expect(info.pglite).toBe(installedPgliteVersion());
    expect(pgliteTemplate(PGLITE_SHARED_BUFFERS)).not.toBeNull();
    // initdb gives every cluster its own system identifier; two directories from the template share it.
    const identifier = async (pgliteDir: string) => {
      const db = await openDatabase({ databaseUrl: null, pgliteDir });
      try {
        const { rows } = await sql<{
          id: string;
        }>`select system_identifier::text as id from pg_control_system()`.execute(db.kysely);
        return rows[0]?.id;
      } finally {
        await db.close();
      }
    };
    const dirs = [tempDir('kadr-template-a-'), tempDir('kadr-template-b-')];
    try {
      const [a, b] = [
        await identifier(path.join(dirs[0]!, 'pg')),
        await identifier(path.join(dirs[1]!, 'pg')),
      ];
      expect(a).toMatch(/^\d+$/);
      expect(b).toBe(a);
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('the first start makes the directory without the server, which then migrates it as it opens it', async () => {
    const dataDir = tempDir('kadr-make-database-');
    try {
      expect(await makeEmbeddedDatabase(dataDir)).toBe('made');
      expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(await makeEmbeddedDatabase(dataDir)).toBe('exists');
      const db = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dataDir, 'pg') });
      try {
        await migrateToLatest(db, moduleMigrations());
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from users`.execute(db.kysely);
        expect(rows[0]?.n).toBe(0);
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the detector is loaded by uploads, not by the start', () => {
  it('no labeler process after the app starts; one as soon as an upload is let in', async () => {
    const t = await createTestApp({ AI_TAGGER_WARM: 'true' });
    try {
      // The job worker has started (it loaded the model here before): no detector process.
      await new Promise((r) => setTimeout(r, 500));
      expect(childrenRunning('labeler-worker')).toEqual([]);
      // An upload refused for its content still warmed the detector: the warm-up starts as the body arrives.
      const me = await registerUser(t.app);
      const res = await upload(t.app, me.access_token, [
        { field: 'files', filename: 'x.jpg', contentType: 'image/jpeg', data: Buffer.from('not an image') },
      ]);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(childrenRunning('labeler-worker').length).toBe(1);
    } finally {
      await t.close();
    }
  }, 300_000);
});
