import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteOneCallDialect } from './pglite-driver.ts';

// biome-ignore lint/suspicious/noExplicitAny: the driver's tests make their own tables, not the schema's.
export type AnyDatabase = any;

/** A new in-memory PGlite and the server's driver over it, for the driver's own tests. */
export async function pgliteWithDriver(): Promise<{ pglite: PGlite; db: Kysely<AnyDatabase> }> {
  const pglite = new PGlite();
  await pglite.waitReady;
  return { pglite, db: new Kysely<AnyDatabase>({ dialect: new PGliteOneCallDialect(pglite) }) };
}
