import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const voiceMigrations: Record<string, Migration> = {
  '1100-voice-sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('voice_sessions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('started_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('ended_at', 'timestamptz')
        .execute();
      // One running session per group: two members starting at once get the same one.
      await sql`create unique index voice_sessions_running on voice_sessions (group_id) where ended_at is null`.execute(
        db,
      );
      await db.schema
        .createTable('voice_participants')
        .addColumn('session_id', 'integer', (c) =>
          c.notNull().references('voice_sessions.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('voice_participants_pk', ['session_id', 'user_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('voice_participants').execute();
      await db.schema.dropTable('voice_sessions').execute();
    },
  },
  '1101-voice-raised-hands': {
    async up(db: Kysely<unknown>) {
      // A raised hand belongs to the participant row: leaving (or the end of the session) lowers it.
      await db.schema.alterTable('voice_participants').addColumn('hand_raised_at', 'timestamptz').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('voice_participants').dropColumn('hand_raised_at').execute();
    },
  },
};
