import { type Kysely, sql } from 'kysely';
import { defineModule } from '../module.ts';
import './tables.ts';

/**
 * Session lifetime: when a session was last used, so one idle past SESSION_IDLE_TIMEOUT_MS stops
 * working (auth/service.ts checks it, the login path stamps it).
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
  },
  async register() {
    return { services: {} };
  },
});
