import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { EXPIRE_JOB } from './jobs.ts';

/** Stories, their views, likes and reports; the story a message replies to; one queued expiry job at most. */
const stories: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stories')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('media_type', 'text', (c) => c.notNull().check(sql`media_type in ('video', 'photo')`))
      .addColumn('status', 'text', (c) =>
        c.notNull().defaultTo('processing').check(sql`status in ('processing', 'ready', 'failed')`),
      )
      .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('file_url', 'text')
      .addColumn('thumbnail_url', 'text')
      .addColumn('duration', 'real', (c) => c.notNull())
      .addColumn('ai_tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
      .addColumn('views_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await sql`create index stories_user_live_idx on stories (user_id, created_at) where status = 'ready'`.execute(
      db,
    );
    await sql`create index stories_created_idx on stories (created_at)`.execute(db);
    for (const table of ['story_views', 'story_likes'] as const) {
      await db.schema
        .createTable(table)
        .addColumn('story_id', 'integer', (c) => c.notNull().references('stories.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint(`${table}_pk`, ['story_id', 'user_id'])
        .execute();
    }
    await db.schema
      .createTable('story_reports')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('story_id', 'integer', (c) => c.notNull().references('stories.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('story_reports_once', ['story_id', 'user_id'])
      .execute();
    // No foreign key: a reply outlives its story and then shows it as expired.
    await sql`alter table messages add column story_id integer`.execute(db);
    // Every node schedules the periodic expiry at start; this keeps it to one queued run.
    await sql`create unique index jobs_stories_expire_once on jobs (kind)
      where kind = ${sql.lit(EXPIRE_JOB)} and status = 'queued'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists jobs_stories_expire_once`.execute(db);
    await sql`alter table messages drop column if exists story_id`.execute(db);
    for (const table of ['story_reports', 'story_likes', 'story_views', 'stories']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};

/** A story's alt text: the tagger's short Russian sentence (the `alt` of its image, the name of its video). */
const altText: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table stories add column ai_description text not null default ''`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table stories drop column ai_description`.execute(db);
  },
};

/**
 * A photo story's screen variant, exactly 720×1280 (media/processing/image-ops.ts `storyScreenSize`): what a
 * phone's viewer shows, the 1080×1920 story file staying for larger screens. Null for videos, for photos no
 * larger than that and for stories processed before it.
 */
const screenVariant: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table stories add column screen_url text`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table stories drop column screen_url`.execute(db);
  },
};

export const storiesMigrations: Record<string, Migration> = {
  '0200-stories': stories,
  '2401-stories-alt-text': altText,
  '2801-stories-screen-variant': screenVariant,
};
