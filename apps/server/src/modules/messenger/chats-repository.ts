import type { MessageFileType } from '@kadr/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {} from '../groups/tables.ts';

/** One chat of a user with its peer (personal) or its title (group, channel), last visible message and unread count. */
export interface ChatRow {
  conversation_id: number;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  created_at: Date;
  last_message_at: Date | null;
  pin_order: number | null;
  my_last_delivered_id: number;
  /** Group and channel title, avatar and member count. */
  title: string | null;
  chat_avatar_url: string | null;
  member_count: number;
  role: 'owner' | 'admin' | 'member' | 'subscriber';
  can_post: boolean;
  peer_id: number | null;
  peer_username: string | null;
  peer_name: string | null;
  peer_avatar_url: string | null;
  peer_avatar_thumbnail_url: string | null;
  peer_last_seen: Date | null;
  /** Personal: the peer's watermarks; group: the furthest other member's (read once anyone read it). */
  peer_last_read_id: number | null;
  peer_last_delivered_id: number | null;
  lm_id: number | null;
  lm_content: string | null;
  lm_sender_id: number | null;
  lm_sender_username: string | null;
  lm_created_at: Date | null;
  lm_message_type: 'text' | 'media' | 'call' | 'service' | null;
  lm_file_type: MessageFileType | null;
  unread_count: number;
  /** The chat's pinned message (migration 2600), while it exists for everyone. */
  pin_id: number | null;
  pin_sender_id: number | null;
  pin_sender_name: string | null;
  pin_content: string | null;
  pin_message_type: 'text' | 'media' | 'call' | 'service' | null;
  pin_file_type: MessageFileType | null;
}

export interface SearchRow {
  id: number;
  conversation_id: number;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  peer_id: number;
}

/**
 * Messages visible to member `me` (alias of conversation_members): not cleared, deleted or hidden, and not
 * from a sender suspended by a moderator (back when the suspension is lifted).
 */
const visibleTo = (alias: string) => sql`
  ${sql.ref(`${alias}.id`)} > me.cleared_up_to and ${sql.ref(`${alias}.deleted_at`)} is null
  and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = ${sql.ref(`${alias}.id`)})
  and not exists (select 1 from user_suspensions sus where sus.user_id = ${sql.ref(`${alias}.sender_id`)})`;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Chat list, chat search by name, message search and presence peers. */
export function chatsRepository(db: Kysely<Database>) {
  /**
   * The chat list. Order and unread counts come from stored columns (`last_message_at`, `total_count -
   * seen_count`), so a page is cut before any message is looked at; only the page's rows then fetch
   * their peer and last visible message.
   */
  async function list(
    userId: number,
    options: { limit?: number; offset?: number; filter?: RawBuilder<unknown> } = {},
  ): Promise<ChatRow[]> {
    const { rows } = await sql<ChatRow>`
      with page as (
        select c.id, c.type, c.created_at, c.last_message_at, c.title, c.avatar_url, c.member_count,
          c.pinned_message_id,
          me.pin_order, me.last_delivered_id, me.cleared_up_to, me.role, me.can_post,
          (c.total_count - me.seen_count) as unread_count
        from conversation_members me
        join conversations c on c.id = me.conversation_id
        where me.user_id = ${userId}
          and (c.type <> 'personal' or me.pin_order is not null or c.last_message_id > me.cleared_up_to)
        order by (c.type = 'favorites') desc, me.pin_order asc nulls last,
          coalesce(c.last_message_at, c.created_at) desc, c.id desc
        limit ${options.filter ? null : (options.limit ?? null)} offset ${options.filter ? 0 : (options.offset ?? 0)}
      )
      select p.id as conversation_id, p.type, p.created_at, p.last_message_at, p.pin_order,
        p.last_delivered_id as my_last_delivered_id, p.title, p.avatar_url as chat_avatar_url, p.member_count,
        p.role, p.can_post, p.unread_count::int as unread_count,
        u.id as peer_id, u.username as peer_username, u.name as peer_name, u.avatar_url as peer_avatar_url,
        u.avatar_thumbnail_url as peer_avatar_thumbnail_url, u.last_seen as peer_last_seen,
        case when p.type = 'group' and lm.sender_id = ${userId} then (
          select max(o.last_read_id) from conversation_members o
          where o.conversation_id = p.id and o.user_id <> ${userId}) else pm.last_read_id end as peer_last_read_id,
        case when p.type = 'group' and lm.sender_id = ${userId} then (
          select max(o.last_delivered_id) from conversation_members o
          where o.conversation_id = p.id and o.user_id <> ${userId}) else pm.last_delivered_id end
          as peer_last_delivered_id,
        lm.id as lm_id, lm.content as lm_content, lm.sender_id as lm_sender_id,
        su.username as lm_sender_username, lm.created_at as lm_created_at, lm.message_type as lm_message_type,
        lm.file_type as lm_file_type,
        pin.id as pin_id, pin.sender_id as pin_sender_id, pin.sender_name as pin_sender_name,
        pin.content as pin_content, pin.message_type as pin_message_type, pin.file_type as pin_file_type
      from page p
      left join lateral (
        select pm.user_id, pm.last_read_id, pm.last_delivered_id from conversation_members pm
        where p.type = 'personal' and pm.conversation_id = p.id and pm.user_id <> ${userId} limit 1
      ) pm on true
      left join users u on u.id = case when p.type = 'favorites' then ${userId} else pm.user_id end
      left join lateral (
        select m.id, left(m.content, 200) as content, m.sender_id, m.created_at, m.message_type,
          case when m.message_type = 'media' then (
            select f.file_type from message_files f where f.message_id = m.id order by f.position limit 1
          ) end as file_type
        from messages m
        where m.conversation_id = p.id and m.id > p.cleared_up_to and m.deleted_at is null
          and not exists (select 1 from message_hidden h where h.user_id = ${userId} and h.message_id = m.id)
          and not exists (select 1 from user_suspensions sus where sus.user_id = m.sender_id)
        order by m.id desc limit 1
      ) lm on true
      left join users su on su.id = lm.sender_id
      left join lateral (
        select m.id, m.sender_id, ps.name as sender_name, left(m.content, 200) as content, m.message_type,
          (select f.file_type from message_files f where f.message_id = m.id order by f.position limit 1)
            as file_type
        from messages m join users ps on ps.id = m.sender_id
        where p.pinned_message_id is not null and m.id = p.pinned_message_id and m.deleted_at is null
          and m.id > p.cleared_up_to
          and not exists (select 1 from user_suspensions sus where sus.user_id = m.sender_id)
      ) pin on true
      where (p.type <> 'personal' or lm.id is not null or p.pin_order is not null)
        and ${options.filter ?? sql`true`}
      order by (p.type = 'favorites') desc, p.pin_order asc nulls last,
        coalesce(p.last_message_at, p.created_at) desc, p.id desc`.execute(db);
    return rows;
  }

  return {
    list: (userId: number, limit?: number, offset?: number) => list(userId, { limit, offset }),

    /** Chats whose peer's name or @username, or whose group / channel title, contains the query. */
    searchByName(userId: number, query: string) {
      const like = `%${escapeLike(query.toLowerCase())}%`;
      return list(userId, {
        filter: sql`(lower(coalesce(u.name, p.title)) like ${like} or lower(u.username) like ${like})`,
      });
    },

    /** Full-text search (Russian word forms) over messages visible to the user; newest first. */
    async searchMessages(userId: number, query: string, limit: number, offset: number): Promise<SearchRow[]> {
      const { rows } = await sql<SearchRow>`
        select m.id, m.conversation_id, c.type, coalesce(pm.user_id, me.user_id) as peer_id
        from conversation_members me
        join conversations c on c.id = me.conversation_id
        -- The peer of a personal chat only: a group's or channel's other members would repeat each hit.
        left join conversation_members pm
          on pm.conversation_id = c.id and pm.user_id <> me.user_id and c.type = 'personal'
        join messages m on m.conversation_id = me.conversation_id
        where me.user_id = ${userId} and ${visibleTo('m')}
          and to_tsvector('russian', m.content) @@ websearch_to_tsquery('russian', ${query})
        order by m.id desc
        limit ${limit} offset ${offset}`.execute(db);
      return rows;
    },

    /** Every chat the user is a member of (listed or not). */
    async chatIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('conversation_members')
        .select('conversation_id')
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => r.conversation_id);
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
