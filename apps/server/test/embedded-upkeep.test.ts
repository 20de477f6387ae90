import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';

// PGlite only: PostgreSQL runs its own autovacuum, and the server leaves it alone there.
const embedded = !process.env.DATABASE_URL;

let t: TestApp;
beforeAll(async () => {
  if (embedded) t = await createTestApp({ PGLITE_MAINTENANCE_MS: '100' });
});
afterAll(async () => {
  await t?.close();
});

it.runIf(embedded)('the server vacuums and analyses its embedded database on its own timer', async () => {
  await registerUser(t.app);
  await registerUser(t.app);
  const analysed = async () =>
    (
      await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'users'`.execute(
        t.db.kysely,
      )
    ).rows[0]?.n ?? -1;
  // Nothing but a vacuum or an analyse counts a table's rows into the catalogue.
  const deadline = Date.now() + 20_000;
  while ((await analysed()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(await analysed()).toBe(2);
  // And the server still answers while its upkeep runs.
  await registerUser(t.app);
});
