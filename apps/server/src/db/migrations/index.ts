import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './0001-accounts.ts';
import * as m0002 from './0002-media-rooms.ts';
import * as m0003 from './0003-media-feed.ts';
import * as m0004 from './0004-messenger.ts';

/** Migrations in order. Imported statically so the same list works under tsx, vitest and bundlers. */
const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-media-rooms': m0002,
  '0003-media-feed': m0003,
  '0004-messenger': m0004,
};

/** The foundation's migrations plus every module's (see modules/module.ts), sorted by name. */
export function migrationProvider(extra: Record<string, Migration> = {}): MigrationProvider {
  const all = { ...migrations, ...extra };
  for (const name of Object.keys(extra)) {
    if (name in migrations) throw new Error(`Migration name used twice: ${name}`);
  }
  return { getMigrations: async () => all };
}
