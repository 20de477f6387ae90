import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { loadEnvFile } from './env-file.ts';
import { DataDirLockedError, lockDataDir } from './storage/data-dir-lock.ts';

/**
 * `npm start`'s step before the server on a first run (scripts/serve.sh, `KADR_MAKE_DATABASE`): makes the new
 * embedded database's data directory — PGlite's initdb in a WASM instance of its own, the tallest peak of a first
 * start — in a process that has ended before the server starts. It is its own small entry (dist/make-database.mjs),
 * not the server's bundle: importing the whole server only to reach the migrations added ~180 MB to that peak
 * (docs/adr/0041-start-memory.md). The server migrates the new directory as it opens it, like any later start.
 */
export async function makeEmbeddedDatabase(dataDir: string): Promise<'made' | 'exists'> {
  const dir = path.join(dataDir, 'pg');
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return 'exists';
  const lock = lockDataDir(dataDir);
  try {
    const db = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    await db.close();
  } finally {
    lock.release();
  }
  return 'made';
}

async function main() {
  loadEnvFile(path.resolve(import.meta.dirname, '../../../.env'));
  try {
    const config = loadConfig();
    if (!config.databaseUrl) await makeEmbeddedDatabase(config.dataDir);
  } catch (err) {
    // The server, started next, says what is wrong with the configuration or who holds the directory.
    if (err instanceof ConfigError || err instanceof DataDirLockedError) return;
    throw err;
  }
}

if (process.argv[1] && path.basename(process.argv[1]).startsWith('make-database')) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
