import { type Kysely, sql } from 'kysely';

/** Media rooms (LiveKit) and their participants, kept from LiveKit's webhooks. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media_rooms')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('sid', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'finished')`))
    .addColumn('participant_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('media_room_participants')
    .addColumn('participant_sid', 'text', (c) => c.primaryKey())
    .addColumn('room_name', 'text', (c) => c.notNull().references('media_rooms.name').onDelete('cascade'))
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('left_at', 'timestamptz')
    .execute();
  await sql`create index media_room_participants_present_idx on media_room_participants (room_name) where left_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media_room_participants').execute();
  await db.schema.dropTable('media_rooms').execute();
}
