import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Follow requests to private accounts: one per pair, listed newest first for the owner. */
export const profileMigrations: Record<string, Migration> = {
  '2270-profile-follow-requests': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('follow_requests')
        .addColumn('requester_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('follow_requests_pk', ['requester_id', 'target_id'])
        .addCheckConstraint('follow_requests_not_self', sql`requester_id <> target_id`)
        .execute();
      await db.schema
        .createIndex('follow_requests_target_idx')
        .on('follow_requests')
        .columns(['target_id', 'created_at'])
        .execute();
    },
  },
};
