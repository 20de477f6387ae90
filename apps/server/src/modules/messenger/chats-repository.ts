import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** One chat of a user with its peer, last visible message and unread count. */
export interface ChatRow {
  conversation_id: number;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  created_at: Date;
  pin_order: number | null;
  my_last_delivered_id: number;
  peer_id: number;
  peer_username: string;
  peer_name: string;
  peer_avatar_url: string | null;
  peer_avatar_thumbnail_url: string | null;
  peer_last_seen: Date | null;
  peer_last_read_id: number | null;
  peer_last_delivered_id: number | null;
  lm_id: number | null;
  lm_content: string | null;
  lm_sender_id: number | null;
  lm_sender_username: string | null;
  lm_created_at: Date | null;
  lm_message_type: 'text' | 'media' | 'call' | null;
  unread_count: number;
}

export interface SearchRow {
  id: number;
  conversation_id: number;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  peer_id: number;
}

/** Messages visible to member `me` (alias of conversation_members): not cleared, deleted or hidden. */
const visibleTo = (alias: string) => sql`
  ${sql.ref(`${alias}.id`)} > me.cleared_up_to and ${sql.ref(`${alias}.deleted_at`)} is null
  and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = ${sql.ref(`${alias}.id`)})`;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Chat list, chat search by name, message search and presence peers. */
export function chatsRepository(db: Kysely<Database>) {
  async function list(userId: number, extra: RawBuilder<unknown> = sql`true`): Promise<ChatRow[]> {
    const { rows } = await sql<ChatRow>`
      select c.id as conversation_id, c.type, c.created_at, me.pin_order,
        me.last_delivered_id as my_last_delivered_id,
        u.id as peer_id, u.username as peer_username, u.name as peer_name, u.avatar_url as peer_avatar_url,
        u.avatar_thumbnail_url as peer_avatar_thumbnail_url, u.last_seen as peer_last_seen,
        pm.last_read_id as peer_last_read_id, pm.last_delivered_id as peer_last_delivered_id,
        lm.id as lm_id, lm.content as lm_content, lm.sender_id as lm_sender_id,
        su.username as lm_sender_username, lm.created_at as lm_created_at, lm.message_type as lm_message_type,
        (select count(*)::int from messages x
          where x.conversation_id = c.id and x.id > me.last_read_id and x.sender_id <> me.user_id
            and ${visibleTo('x')}) as unread_count
      from conversation_members me
      join conversations c on c.id = me.conversation_id
      left join conversation_members pm on pm.conversation_id = c.id and pm.user_id <> me.user_id
      join users u on u.id = coalesce(pm.user_id, me.user_id)
      left join lateral (
        select m.id, left(m.content, 200) as content, m.sender_id, m.created_at, m.message_type
        from messages m
        where m.conversation_id = c.id and ${visibleTo('m')}
        order by m.id desc limit 1
      ) lm on true
      left join users su on su.id = lm.sender_id
      where me.user_id = ${userId} and c.type in ('personal', 'favorites')
        and (lm.id is not null or me.pin_order is not null or c.type = 'favorites')
        and ${extra}
      order by (c.type = 'favorites') desc, me.pin_order asc nulls last,
        coalesce(lm.created_at, c.created_at) desc, c.id desc`.execute(db);
    return rows;
  }

  return {
    list: (userId: number) => list(userId),

    /** Chats whose peer's name or @username contains the query (case-insensitive). */
    searchByName(userId: number, query: string) {
      const like = `%${escapeLike(query.toLowerCase())}%`;
      return list(userId, sql`(lower(u.name) like ${like} or lower(u.username) like ${like})`);
    },

    /** Full-text search (Russian word forms) over messages visible to the user; newest first. */
    async searchMessages(userId: number, query: string, limit: number, offset: number): Promise<SearchRow[]> {
      const { rows } = await sql<SearchRow>`
        select m.id, m.conversation_id, c.type, coalesce(pm.user_id, me.user_id) as peer_id
        from conversation_members me
        join conversations c on c.id = me.conversation_id
        left join conversation_members pm on pm.conversation_id = c.id and pm.user_id <> me.user_id
        join messages m on m.conversation_id = me.conversation_id
        where me.user_id = ${userId} and ${visibleTo('m')}
          and to_tsvector('russian', m.content) @@ websearch_to_tsquery('russian', ${query})
        order by m.id desc
        limit ${limit} offset ${offset}`.execute(db);
      return rows;
    },

    /** Users who share a personal chat with this user (they hear about its presence). */
    async peers(userId: number): Promise<number[]> {
      const { rows } = await sql<{ user_id: number }>`
        select pm.user_id from conversation_members me
        join conversations c on c.id = me.conversation_id and c.type = 'personal'
        join conversation_members pm on pm.conversation_id = me.conversation_id and pm.user_id <> me.user_id
        where me.user_id = ${userId}`.execute(db);
      return rows.map((r) => r.user_id);
    },
  };
}

export type ChatsRepository = ReturnType<typeof chatsRepository>;
