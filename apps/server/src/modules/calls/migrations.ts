import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const STATES = `'ringing', 'connecting', 'active', 'ended', 'rejected', 'failed', 'busy', 'missed'`;

export const callsMigrations: Record<string, Migration> = {
  '0500-calls': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('calls')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('caller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('callee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('audio', 'video')`))
        .addColumn('state', 'text', (c) => c.notNull().check(sql.raw(`state in (${STATES})`)))
        .addColumn('end_reason', 'text', (c) =>
          c.check(sql`end_reason in ('hangup', 'cancelled', 'disconnected')`),
        )
        .addColumn('caller_key', 'text')
        .addColumn('callee_key', 'text')
        .addColumn('caller_socket', 'text')
        .addColumn('callee_socket', 'text')
        .addColumn('caller_away_at', 'timestamptz')
        .addColumn('callee_away_at', 'timestamptz')
        .addColumn('caller_connected_at', 'timestamptz')
        .addColumn('callee_connected_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('answered_at', 'timestamptz')
        .addColumn('started_at', 'timestamptz')
        .addColumn('ended_at', 'timestamptz')
        .execute();
      // The sweep and the socket-disconnect update only ever look at live calls: keep them in a small index.
      await sql`create index calls_live on calls (state) where state in ('ringing', 'connecting', 'active')`.execute(
        db,
      );
      await db.schema.createIndex('calls_caller').on('calls').columns(['caller_id', 'id']).execute();
      await db.schema.createIndex('calls_callee').on('calls').columns(['callee_id', 'id']).execute();
      await db.schema
        .createTable('call_lines')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('call_id', 'integer', (c) => c.notNull().references('calls.id').onDelete('cascade'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('call_lines').execute();
      await db.schema.dropTable('calls').execute();
    },
  },
};
