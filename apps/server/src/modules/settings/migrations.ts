import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Settings (spec §2.3): per-user preferences, blocks, chat mutes and web push. */
export const settingsMigrations: Record<string, Migration> = {
  '0900-settings-tables': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_settings')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('user_blocks')
        .addColumn('blocker_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('blocked_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
        .addCheckConstraint('user_blocks_not_self', sql`blocker_id <> blocked_id`)
        .execute();
      await db.schema
        .createIndex('user_blocks_blocked_idx')
        .on('user_blocks')
        .columns(['blocked_id', 'blocker_id'])
        .execute();
      await db.schema
        .createTable('chat_mutes')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('conversation_id', 'integer', (c) =>
          c.notNull().references('conversations.id').onDelete('cascade'),
        )
        .addColumn('muted_until', 'timestamptz')
        .addPrimaryKeyConstraint('chat_mutes_pk', ['user_id', 'conversation_id'])
        .execute();
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex('push_subscriptions_user_idx')
        .on('push_subscriptions')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('push_keys')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['push_keys', 'push_subscriptions', 'chat_mutes', 'user_blocks', 'user_settings'])
        await db.schema.dropTable(t).execute();
    },
  },
  // The session that subscribed (its token hash, `ctx.auth.sessionId`): ending the session ends its
  // pushes. Null for subscriptions made before this migration; those stay until unsubscribed or gone.
  '0901-push-subscriptions-session': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('push_subscriptions').addColumn('session_hash', 'text').execute();
      await db.schema
        .createIndex('push_subscriptions_session_idx')
        .on('push_subscriptions')
        .column('session_hash')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('push_subscriptions_session_idx').execute();
      await db.schema.alterTable('push_subscriptions').dropColumn('session_hash').execute();
    },
  },
};
