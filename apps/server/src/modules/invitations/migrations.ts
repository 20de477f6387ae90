import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Invitations into groups and channels, made when the invitee does not let the inviter add them. */
export const invitationsMigrations: Record<string, Migration> = {
  '2000-reach-invitations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('reach_invitations')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('place_id', 'integer', (c) =>
          c.notNull().references('conversations.id').onDelete('cascade'),
        )
        .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('invitee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('rights', 'jsonb')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('reach_invitations_once', ['kind', 'place_id', 'invitee_id'])
        .addCheckConstraint('reach_invitations_kind', sql`kind in ('group', 'channel_admin')`)
        .execute();
      await db.schema
        .createIndex('reach_invitations_invitee_idx')
        .on('reach_invitations')
        .columns(['invitee_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('reach_invitations').execute();
    },
  },
};
