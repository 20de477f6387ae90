import { type Kysely, sql } from 'kysely';

/** Media feed: posts with their files, likes/saves/reposts, comments, tag blacklist, and the durable job queue. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('posts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('processing'))
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reposts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Effective tags (tagger output with the author's sleep choice applied); what filters and the feed read.
    .addColumn('ai_tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('ai_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ai_for_sleep', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ai_calm_score', 'real')
    .addColumn('ai_provider', 'text')
    .addColumn('ai_model', 'text')
    // null: follow the tagger; true/false: the author's choice.
    .addColumn('for_sleep_override', 'boolean')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('posts_media_type', sql`media_type in ('video', 'photo', 'carousel')`)
    .addCheckConstraint('posts_status', sql`status in ('uploading', 'processing', 'done', 'failed')`)
    .execute();
  await sql`create index posts_feed_idx on posts (created_at desc, id desc) where status = 'done'`.execute(
    db,
  );
  await sql`create index posts_user_idx on posts (user_id, created_at desc)`.execute(db);

  await db.schema
    .createTable('post_files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('file_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('thumbnail_url', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration', 'real')
    .addUniqueConstraint('post_files_position', ['post_id', 'position'])
    .addCheckConstraint('post_files_type', sql`file_type in ('video', 'image')`)
    .execute();

  for (const table of ['post_likes', 'post_saves', 'post_reposts'] as const) {
    await db.schema
      .createTable(table)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint(`${table}_pk`, ['post_id', 'user_id'])
      .execute();
    await sql`create index ${sql.raw(`${table}_user_idx`)} on ${sql.table(table)} (user_id, created_at desc)`.execute(
      db,
    );
  }

  await db.schema
    .createTable('post_comments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('comment_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('post_comments_post_idx')
    .on('post_comments')
    .columns(['post_id', 'id'])
    .execute();

  await db.schema
    .createTable('tag_blacklist')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('tag_blacklist_pk', ['user_id', 'tag'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint('jobs_status', sql`status in ('queued', 'running', 'done', 'failed')`)
    .execute();
  await sql`create index jobs_ready_idx on jobs (run_at, id) where status in ('queued', 'running')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'jobs',
    'tag_blacklist',
    'post_comments',
    'post_reposts',
    'post_saves',
    'post_likes',
    'post_files',
    'posts',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
