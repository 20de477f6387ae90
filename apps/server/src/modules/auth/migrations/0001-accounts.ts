import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('avatar_url', 'text')
    .addColumn('avatar_thumbnail_url', 'text')
    .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_username_lower_idx on users (lower(username))`.execute(db);
  await sql`create index users_username_prefix_idx on users (lower(username) text_pattern_ops)`.execute(db);
  await sql`create index users_name_prefix_idx on users (lower(name) text_pattern_ops)`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followee_id`)
    .execute();
  await db.schema
    .createIndex('follows_followee_idx')
    .on('follows')
    .columns(['followee_id', 'follower_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('follows').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
