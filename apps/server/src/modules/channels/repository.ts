import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ROOM_SEARCH_LIMIT, roomMembership, titleOrSlugMatches } from '../groups/room-parts.ts';
import type {} from './tables.ts';

export interface ChannelRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  avatar_url: string | null;
  is_public: boolean;
  owner_id: number;
  subscribers_count: number;
  created_at: Date;
  role: 'owner' | 'admin' | 'subscriber' | null;
  can_post: boolean | null;
  can_edit_others: boolean | null;
  can_delete_others: boolean | null;
  last_post: string | null;
  last_post_time: Date | null;
}

export interface ChannelMemberRow {
  user_id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  role: 'owner' | 'admin' | 'subscriber';
  can_post: boolean;
  can_edit_others: boolean;
  can_delete_others: boolean;
}

export interface Rights {
  can_post: boolean;
  can_edit_others: boolean;
  can_delete_others: boolean;
}

/** SQL for channels: the channel row, its chat, subscribers (members) and administrators' rights. */
export function channelsRepository(db: Kysely<Database>) {
  const select = (viewerId: number) =>
    db
      .selectFrom('channels as ch')
      .innerJoin('conversations as c', 'c.id', 'ch.id')
      .leftJoin('conversation_members as me', (j) =>
        j.onRef('me.conversation_id', '=', 'ch.id').on('me.user_id', '=', viewerId),
      )
      .leftJoin('messages as lp', 'lp.id', 'c.last_message_id')
      .select([
        'ch.id',
        'c.title as name',
        'ch.slug',
        'ch.description',
        'c.avatar_url',
        'ch.is_public',
        'ch.owner_id',
        'c.member_count as subscribers_count',
        'ch.created_at',
        'me.role',
        'me.can_post',
        'me.can_edit_others',
        'me.can_delete_others',
        sql<string | null>`left(lp.content, 200)`.as('last_post'),
        'lp.created_at as last_post_time',
      ]);

  const memberColumns = [
    'm.user_id',
    'u.username',
    'u.name',
    'u.avatar_url',
    'm.role',
    'm.can_post',
    'm.can_edit_others',
    'm.can_delete_others',
  ] as const;

  const membership = roomMembership(db, 'channel');

  return {
    ...membership,

    async create(values: {
      ownerId: number;
      name: string;
      slug: string;
      description: string;
      isPublic: boolean;
    }): Promise<number> {
      // One statement: atomic without a transaction (see groups/repository.ts).
      const { rows } = await sql<{ id: number }>`
        with c as (
          insert into conversations (type, title) values ('channel', ${values.name}) returning id
        ), ch as (
          insert into channels (id, slug, description, is_public, owner_id)
          select id, ${values.slug}, ${values.description}, ${values.isPublic}, ${values.ownerId} from c
        ), m as (
          insert into conversation_members
            (conversation_id, user_id, role, can_post, can_edit_others, can_delete_others)
          select id, ${values.ownerId}, 'owner', true, true, true from c
        )
        select id from c`.execute(db);
      return (rows[0] as { id: number }).id;
    },

    find(id: number, viewerId: number): Promise<ChannelRow | undefined> {
      return select(viewerId).where('ch.id', '=', id).executeTakeFirst() as Promise<ChannelRow | undefined>;
    },
    findBySlug(slug: string, viewerId: number): Promise<ChannelRow | undefined> {
      return select(viewerId)
        .where(sql`lower(ch.slug)`, '=', slug.toLowerCase())
        .executeTakeFirst() as Promise<ChannelRow | undefined>;
    },
    listFor(userId: number): Promise<ChannelRow[]> {
      return select(userId).where('me.user_id', '=', userId).orderBy('ch.id', 'desc').execute() as Promise<
        ChannelRow[]
      >;
    },
    /** Public channels whose name or address contains the query, the most followed first. */
    searchPublic(query: string, viewerId: number): Promise<ChannelRow[]> {
      return select(viewerId)
        .where('ch.is_public', '=', true)
        .where(titleOrSlugMatches('c.title', 'ch.slug', query))
        .orderBy('c.member_count', 'desc')
        .orderBy('ch.id', 'desc')
        .limit(ROOM_SEARCH_LIMIT)
        .execute() as Promise<ChannelRow[]>;
    },

    async subscribe(id: number, userId: number): Promise<boolean> {
      const rows = await db
        .insertInto('conversation_members')
        .values({ conversation_id: id, user_id: userId, role: 'subscriber' })
        .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    unsubscribe: membership.removeMember,

    subscribers(id: number, limit: number, offset: number): Promise<ChannelMemberRow[]> {
      return db
        .selectFrom('conversation_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(memberColumns)
        .where('m.conversation_id', '=', id)
        .orderBy('m.joined_at')
        .orderBy('m.user_id')
        .limit(limit)
        .offset(offset)
        .execute() as Promise<ChannelMemberRow[]>;
    },

    admins(id: number): Promise<ChannelMemberRow[]> {
      return db
        .selectFrom('conversation_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(memberColumns)
        .where('m.conversation_id', '=', id)
        .where('m.role', 'in', ['owner', 'admin'])
        .orderBy(sql`case m.role when 'owner' then 0 else 1 end`)
        .orderBy('m.joined_at')
        .execute() as Promise<ChannelMemberRow[]>;
    },

    /** Makes the user an administrator with these rights, subscribing them on the way. */
    async setAdmin(id: number, userId: number, rights: Rights): Promise<void> {
      await db
        .insertInto('conversation_members')
        .values({ conversation_id: id, user_id: userId, role: 'admin', ...rights })
        .onConflict((oc) =>
          oc.columns(['conversation_id', 'user_id']).doUpdateSet({ role: 'admin', ...rights }),
        )
        .execute();
    },

    /** Changes an administrator's rights; false when the user is not an administrator (nor the owner's). */
    async updateRights(id: number, userId: number, rights: Rights): Promise<boolean> {
      const rows = await db
        .updateTable('conversation_members')
        .set(rights)
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .where('role', '=', 'admin')
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    async demote(id: number, userId: number): Promise<void> {
      await db
        .updateTable('conversation_members')
        .set({ role: 'subscriber', can_post: false, can_edit_others: false, can_delete_others: false })
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .where('role', '=', 'admin')
        .execute();
    },
  };
}

export type ChannelsRepository = ReturnType<typeof channelsRepository>;
