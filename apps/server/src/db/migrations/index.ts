import type { Migration, MigrationProvider } from 'kysely/migration';

/**
 * Every migration is declared by the module that owns its tables (modules/<capability>/module.ts,
 * collected by modules/index.ts `moduleMigrations`). Names sort globally: `NNNN-<what>`.
 */
export function migrationProvider(migrations: Record<string, Migration>): MigrationProvider {
  return { getMigrations: async () => migrations };
}
