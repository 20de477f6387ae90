import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Notifications (spec §3, §4.6) and the event cache (§9: 5 min, cleared each minute). A notification
 * goes with its recipient, its actor, its post (a deleted post takes its notifications with it) and its
 * chat. `agg_key` joins likes (or reposts) of one post into one unread row; the partial unique index is
 * what makes that join atomic on any number of nodes. `notification_events` holds the recent
 * (actor, action, target) keys, so like → unlike → like within 5 minutes notifies once on every node.
 */
const notifications: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notifications')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) =>
        c.notNull().check(sql`type in ('like', 'comment', 'follow', 'repost', 'mention', 'reply')`),
      )
      .addColumn('post_id', 'integer', (c) => c.references('posts.id').onDelete('cascade'))
      .addColumn('conversation_id', 'integer', (c) => c.references('conversations.id').onDelete('cascade'))
      .addColumn('place', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('snippet', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('others_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('agg_key', 'text')
      .addColumn('is_read', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await sql`create index notifications_user_recent_idx on notifications (user_id, created_at desc, id desc)`.execute(
      db,
    );
    await sql`create index notifications_user_unread_idx on notifications (user_id, type) where not is_read`.execute(
      db,
    );
    await sql`create unique index notifications_unread_agg_once on notifications (user_id, agg_key)
      where not is_read and agg_key is not null`.execute(db);
    await sql`create index notifications_post_idx on notifications (post_id) where post_id is not null`.execute(
      db,
    );
    await sql`create index notifications_actor_idx on notifications (actor_id)`.execute(db);
    await sql`create index notifications_conversation_idx on notifications (conversation_id)
      where conversation_id is not null`.execute(db);
    // Unread counts per recipient and group, kept by a trigger (inserts, reads, and cascades from a
    // deleted post, actor or chat), so a page reads one small row set instead of counting.
    await db.schema
      .createTable('notification_unread')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('grp', 'text', (c) => c.notNull())
      .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('notification_unread_pk', ['user_id', 'grp'])
      .execute();
    await sql`
      create function kadr_notification_group(kind text) returns text language sql immutable as $$
        select case when kind in ('like', 'repost') then 'engagement'
                    when kind = 'follow' then 'follows' else 'comments' end
      $$`.execute(db);
    await sql`
      create function kadr_notifications_count() returns trigger language plpgsql as $$
      begin
        -- Read-all sets the counters itself (repository.markAllRead), in the same transaction.
        if current_setting('kadr.notifications_bulk', true) = 'on' then return null; end if;
        if tg_op in ('UPDATE', 'DELETE') and not old.is_read then
          update notification_unread set unread = greatest(unread - 1, 0)
            where user_id = old.user_id and grp = kadr_notification_group(old.type);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and not new.is_read then
          insert into notification_unread (user_id, grp, unread)
            values (new.user_id, kadr_notification_group(new.type), 1)
            on conflict (user_id, grp) do update set unread = notification_unread.unread + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger notifications_count after insert or delete or update of is_read on notifications
      for each row execute function kadr_notifications_count()`.execute(db);
    await db.schema
      .createTable('notification_events')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notification_events').ifExists().execute();
    await db.schema.dropTable('notifications').ifExists().execute();
    await db.schema.dropTable('notification_unread').ifExists().execute();
    await sql`drop function if exists kadr_notifications_count()`.execute(db);
    await sql`drop function if exists kadr_notification_group(text)`.execute(db);
  },
};

export const notificationsMigrations: Record<string, Migration> = { '0800-notifications': notifications };
