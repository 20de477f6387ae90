import { type Kysely, sql } from 'kysely';
import { defineModule } from '../module.ts';
import './tables.ts';

/**
 * Session lifetime: when a session was last used, so one idle past SESSION_IDLE_TIMEOUT_MS (or older than
 * SESSION_MAX_AGE_MS) stops working (auth/service.ts checks it and sweeps expired ones, ending their
 * sockets; requests and socket events stamp it).
 */
export const sessionsModule = defineModule({
  name: 'sessions',
  migrations: {
    '0700-sessions-last-used': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('sessions')
          .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('sessions').dropColumn('last_used_at').execute();
      },
    },
    // The expiry sweep (auth/service.ts) looks for live sessions by last use and by age.
    '2050-sessions-expiry': {
      async up(db: Kysely<unknown>) {
        await sql`create index sessions_live_last_used_idx on sessions (last_used_at) where revoked_at is null`.execute(
          db,
        );
        await sql`create index sessions_live_created_idx on sessions (created_at) where revoked_at is null`.execute(
          db,
        );
      },
      async down(db: Kysely<unknown>) {
        await sql`drop index sessions_live_created_idx`.execute(db);
        await sql`drop index sessions_live_last_used_idx`.execute(db);
      },
    },
  },
  async register() {
    return { services: {} };
  },
});
