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

export const livestreamMigrations: Record<string, Migration> = { '0400-livestreams': streams };
