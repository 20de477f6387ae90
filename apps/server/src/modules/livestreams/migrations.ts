import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Live streams, their guests and the last chat messages (kept in the database so any node serves late joiners). */
const streams: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_streams')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('live', 'ended')`))
      .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('ended_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // One live stream per host at a time, enforced by the database so two racing starts cannot both win.
    await sql`create unique index live_streams_one_live_per_host on live_streams (user_id) where status = 'live'`.execute(
      db,
    );
    await sql`create index live_streams_live_started on live_streams (started_at desc) where status = 'live'`.execute(
      db,
    );

    await db.schema
      .createTable('live_stream_guests')
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('live_streams.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('live_stream_guests_pk', ['stream_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('live_stream_messages')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('live_streams.id').onDelete('cascade'))
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('temp_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('live_stream_messages_temp_id', ['stream_id', 'sender_id', 'temp_id'])
      .execute();
    await db.schema
      .createIndex('live_stream_messages_stream_id')
      .on('live_stream_messages')
      .columns(['stream_id', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('live_stream_messages').execute();
    await db.schema.dropTable('live_stream_guests').execute();
    await db.schema.dropTable('live_streams').execute();
  },
};

/**
 * Live chat as the server's own record: every line stored with its author from the session, kept after a
 * moderator deletes it (deleted_at, deleted_by) so it can be reported; per-stream mutes, bans, slow mode and
 * moderators (guests the host promoted). The previous table's lines move over with their ids.
 */
const chatModeration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_chat_messages')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('live_streams.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('text', 'text', (c) => c.notNull())
      // The sender's own key for a line: a resend of the same line is stored and sent once.
      .addColumn('temp_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('deleted_at', 'timestamptz')
      .addColumn('deleted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addUniqueConstraint('live_chat_messages_temp_id', ['stream_id', 'user_id', 'temp_id'])
      .execute();
    await db.schema
      .createIndex('live_chat_messages_stream_id')
      .on('live_chat_messages')
      .columns(['stream_id', 'id'])
      .execute();
    await sql`insert into live_chat_messages (id, stream_id, user_id, text, temp_id, created_at)
      select id, stream_id, sender_id, content, temp_id, created_at from live_stream_messages`.execute(db);
    await sql`select setval(pg_get_serial_sequence('live_chat_messages', 'id'),
      greatest((select max(id) from live_chat_messages), 1))`.execute(db);
    await db.schema.dropTable('live_stream_messages').execute();

    await db.schema
      .alterTable('live_streams')
      .addColumn('slow_mode_seconds', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('live_stream_guests')
      .addColumn('moderator', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();

    for (const table of ['live_stream_mutes', 'live_stream_bans'])
      await db.schema
        .createTable(table)
        .addColumn('stream_id', 'integer', (c) =>
          c.notNull().references('live_streams.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint(`${table}_pk`, ['stream_id', 'user_id'])
        .execute();

    // Slow mode's gate: one row per (stream, sender), moved forward by the send it lets through.
    await db.schema
      .createTable('live_chat_slow_mode')
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('live_streams.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('last_sent_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('live_chat_slow_mode_pk', ['stream_id', 'user_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('live_chat_slow_mode').execute();
    await db.schema.dropTable('live_stream_bans').execute();
    await db.schema.dropTable('live_stream_mutes').execute();
    await db.schema.alterTable('live_stream_guests').dropColumn('moderator').execute();
    await db.schema.alterTable('live_streams').dropColumn('slow_mode_seconds').execute();
    await db.schema
      .createTable('live_stream_messages')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('live_streams.id').onDelete('cascade'))
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('temp_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('live_stream_messages_temp_id', ['stream_id', 'sender_id', 'temp_id'])
      .execute();
    await db.schema.dropTable('live_chat_messages').execute();
  },
};

export const livestreamMigrations: Record<string, Migration> = {
  '0400-livestreams': streams,
  '2100-livestreams-chat-moderation': chatModeration,
};
