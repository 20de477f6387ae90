import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Channels: the channel row beside its chat (title, avatar and subscriber count live on the chat). */
const table: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table channels (
        id integer primary key references conversations(id) on delete cascade,
        slug text not null,
        description text not null default '',
        is_public boolean not null default true,
        owner_id integer not null references users(id) on delete cascade,
        created_at timestamptz not null default now()
      )`.execute(db);
    // Mention links are case-insensitive.
    await sql`create unique index channels_slug_idx on channels (lower(slug))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table channels`.execute(db);
  },
};

export const channelsMigrations = { '0300-channels-table': table };
