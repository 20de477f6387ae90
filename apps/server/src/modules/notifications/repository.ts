import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NotificationKind, NotificationPlace } from './tables.ts';

export interface NewNotification {
  userId: number;
  actorId: number;
  type: NotificationKind;
  postId?: number | null;
  conversationId?: number | null;
  place?: NotificationPlace;
  snippet?: string;
  /** Likes and reposts of one post join one unread row under this key. */
  aggKey?: string | null;
  /**
   * When the action happened, if not now: a message's own time. The listeners of two messages run side by
   * side, and the newer one's notification may be stored first; the list orders by this time.
   */
  at?: Date;
}

/** One stored notification with what its text and links need. */
export interface NotificationRow {
  id: number;
  user_id: number;
  type: NotificationKind;
  post_id: number | null;
  conversation_id: number | null;
  place: NotificationPlace;
  snippet: string;
  others_count: number;
  is_read: boolean;
  created_at: Date;
  username: string;
  name: string;
  avatar_url: string | null;
  post_preview: string | null;
  chat_type: string | null;
  chat_title: string | null;
}

/** SQL of the notifications module. */
export function notificationsRepository(db: Kysely<Database>) {
  const select = () =>
    db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.actor_id')
      .leftJoin('conversations as c', 'c.id', 'n.conversation_id')
      .select([
        'n.id',
        'n.user_id',
        'n.type',
        'n.post_id',
        'n.conversation_id',
        'n.place',
        'n.snippet',
        'n.others_count',
        'n.is_read',
        'n.created_at',
        'u.username',
        'u.name',
        sql<string | null>`coalesce(u.avatar_thumbnail_url, u.avatar_url)`.as('avatar_url'),
        sql<
          string | null
        >`(select coalesce(f.thumbnail_url, case when f.file_type = 'image' then f.file_url end)
          from post_files f where f.post_id = n.post_id order by f.position limit 1)`.as('post_preview'),
        'c.type as chat_type',
        'c.title as chat_title',
      ]);

  return {
    /**
     * Claims an (actor, action, target) key for the event window: true when it was free or older than
     * `since` (then it is renewed), false when the same event happened within the window.
     */
    async claimEvent(key: string, now: Date, since: Date): Promise<boolean> {
      const { rows } = await sql<{ key: string }>`
        insert into notification_events (key, created_at) values (${key}, ${now})
        on conflict (key) do update set created_at = excluded.created_at
          where notification_events.created_at < ${since}
        returning key`.execute(db);
      return rows.length > 0;
    },

    /** Removes event keys older than the window (the minute sweep). */
    async sweepEvents(since: Date): Promise<number> {
      const result = await db
        .deleteFrom('notification_events')
        .where('created_at', '<', since)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Inserts, or joins an unread row with the same aggregation key (the newest actor leads it). */
    async store(n: NewNotification, now: Date): Promise<number> {
      const values = sql`(${n.userId}, ${n.actorId}, ${n.type}, ${n.postId ?? null}, ${n.conversationId ?? null},
        ${n.place ?? ''}, ${n.snippet ?? ''}, ${n.aggKey ?? null}, ${n.at ?? now})`;
      const insert = sql`insert into notifications
        (user_id, actor_id, type, post_id, conversation_id, place, snippet, agg_key, created_at) values ${values}`;
      const { rows } = n.aggKey
        ? await sql<{ id: number }>`${insert}
            on conflict (user_id, agg_key) where not is_read and agg_key is not null do update
              set others_count = notifications.others_count + 1, actor_id = excluded.actor_id,
                  created_at = excluded.created_at
            returning id`.execute(db)
        : await sql<{ id: number }>`${insert} returning id`.execute(db);
      return rows[0]!.id;
    },

    /** The actor's name (and the chat's title) for a notification that is pushed but not stored. */
    async about(
      actorId: number,
      conversationId: number | null,
    ): Promise<{ username: string; name: string; chat_title: string | null } | undefined> {
      const actor = await db
        .selectFrom('users')
        .select(['username', 'name'])
        .where('id', '=', actorId)
        .executeTakeFirst();
      if (!actor) return undefined;
      const chat =
        conversationId === null
          ? undefined
          : await db
              .selectFrom('conversations')
              .select('title')
              .where('id', '=', conversationId)
              .executeTakeFirst();
      return { ...actor, chat_title: chat?.title ?? null };
    },

    async one(id: number): Promise<NotificationRow | undefined> {
      return (await select().where('n.id', '=', id).executeTakeFirst()) as NotificationRow | undefined;
    },

    async page(userId: number, offset: number, limit: number): Promise<NotificationRow[]> {
      return (await select()
        .where('n.user_id', '=', userId)
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute()) as NotificationRow[];
    },

    async unread(userId: number): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('notification_unread')
        .select(['grp', 'unread'])
        .where('user_id', '=', userId)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.grp, r.unread]));
    },

    /** Marks the recipient's own notification read; undefined when it is not theirs (or does not exist). */
    async markRead(userId: number, id: number): Promise<boolean> {
      const row = await db
        .selectFrom('notifications')
        .select('is_read')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return false;
      if (!row.is_read)
        await db
          .updateTable('notifications')
          .set({ is_read: true })
          .where('id', '=', id)
          .where('is_read', '=', false)
          .execute();
      return true;
    },

    async markAllRead(userId: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // One statement for the rows; the counters are zeroed here instead of once per row by the trigger.
        await sql`select set_config('kadr.notifications_bulk', 'on', true)`.execute(trx);
        await trx
          .updateTable('notifications')
          .set({ is_read: true })
          .where('user_id', '=', userId)
          .where('is_read', '=', false)
          .execute();
        await trx
          .updateTable('notification_unread')
          .set({ unread: 0 })
          .where('user_id', '=', userId)
          .execute();
      });
    },

    /** Users by lower-cased username. */
    async usersByName(usernames: string[]): Promise<Array<{ id: number; username: string }>> {
      if (usernames.length === 0) return [];
      return db
        .selectFrom('users')
        .select(['id', 'username'])
        .where(sql<string>`lower(username)`, 'in', usernames)
        .execute();
    },

    async userIdByName(username: string): Promise<number | undefined> {
      return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst())
        ?.id;
    },

    /** Which of the users belong to the chat. */
    async membersAmong(conversationId: number, userIds: number[]): Promise<number[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .where('user_id', 'in', userIds)
        .execute();
      return rows.map((r) => r.user_id);
    },

    async post(postId: number): Promise<{ user_id: number; caption: string; status: string } | undefined> {
      return db
        .selectFrom('posts')
        .select(['user_id', 'caption', 'status'])
        .where('id', '=', postId)
        .executeTakeFirst();
    },

    async isFollowing(followerId: number, followeeId: number): Promise<boolean> {
      const row = await db
        .selectFrom('follows')
        .select('follower_id')
        .where('follower_id', '=', followerId)
        .where('followee_id', '=', followeeId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
