import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ROOM_SEARCH_LIMIT, roomMembership, titleOrSlugMatches } from './room-parts.ts';
import type {} from './tables.ts';

export interface GroupRow {
  id: number;
  name: string;
  slug: string | null;
  description: string;
  avatar_url: string | null;
  is_public: boolean;
  invite_token: string | null;
  owner_id: number;
  member_count: number;
  created_at: Date;
  /** The viewer's role, null when not a member. */
  role: 'owner' | 'admin' | 'member' | null;
}

export interface GroupMemberRow {
  user_id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  role: 'owner' | 'admin' | 'member';
}

/** SQL for groups: the group row, its chat (title, avatar, member count) and member roles. */
export function groupsRepository(db: Kysely<Database>) {
  const select = (viewerId: number) =>
    db
      .selectFrom('groups as g')
      .innerJoin('conversations as c', 'c.id', 'g.id')
      .leftJoin('conversation_members as me', (j) =>
        j.onRef('me.conversation_id', '=', 'g.id').on('me.user_id', '=', viewerId),
      )
      .select([
        'g.id',
        'c.title as name',
        'g.slug',
        'g.description',
        'c.avatar_url',
        'g.is_public',
        'g.invite_token',
        'g.owner_id',
        'c.member_count',
        'g.created_at',
        'me.role',
      ]);

  return {
    ...roomMembership(db, 'group'),

    async create(values: {
      ownerId: number;
      name: string;
      description: string;
      isPublic: boolean;
      slug: string | null;
      inviteToken: string;
      memberIds: number[];
    }): Promise<number> {
      // One statement, so it is atomic without a transaction (the embedded database's driver cannot run
      // two transactions at once, and other modules open theirs at any time).
      const ids = [values.ownerId, ...values.memberIds.filter((u) => u !== values.ownerId)];
      const roles = ids.map((u) => (u === values.ownerId ? 'owner' : 'member'));
      const { rows } = await sql<{ id: number }>`
        with c as (
          insert into conversations (type, title) values ('group', ${values.name}) returning id
        ), g as (
          insert into groups (id, slug, description, is_public, invite_token, owner_id)
          select id, ${values.slug}, ${values.description}, ${values.isPublic}, ${values.inviteToken}, ${values.ownerId}
          from c
        ), m as (
          insert into conversation_members (conversation_id, user_id, role)
          select c.id, u.user_id, u.role from c, unnest(${ids}::int[], ${roles}::text[]) as u(user_id, role)
        )
        select id from c`.execute(db);
      return (rows[0] as { id: number }).id;
    },

    find(id: number, viewerId: number): Promise<GroupRow | undefined> {
      return select(viewerId).where('g.id', '=', id).executeTakeFirst() as Promise<GroupRow | undefined>;
    },
    findByToken(token: string, viewerId: number): Promise<GroupRow | undefined> {
      return select(viewerId).where('g.invite_token', '=', token).executeTakeFirst() as Promise<
        GroupRow | undefined
      >;
    },
    findBySlug(slug: string, viewerId: number): Promise<GroupRow | undefined> {
      return select(viewerId)
        .where(sql`lower(g.slug)`, '=', slug.toLowerCase())
        .executeTakeFirst() as Promise<GroupRow | undefined>;
    },
    listFor(userId: number): Promise<GroupRow[]> {
      return select(userId).where('me.user_id', '=', userId).orderBy('g.id', 'desc').execute() as Promise<
        GroupRow[]
      >;
    },
    /** Public groups whose name or address contains the query, the largest first. */
    searchPublic(query: string, viewerId: number): Promise<GroupRow[]> {
      return select(viewerId)
        .where('g.is_public', '=', true)
        .where(titleOrSlugMatches('c.title', 'g.slug', query))
        .orderBy('c.member_count', 'desc')
        .orderBy('g.id', 'desc')
        .limit(ROOM_SEARCH_LIMIT)
        .execute() as Promise<GroupRow[]>;
    },

    members(id: number): Promise<GroupMemberRow[]> {
      return db
        .selectFrom('conversation_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.user_id', 'u.username', 'u.name', 'u.avatar_url', 'm.role'])
        .where('m.conversation_id', '=', id)
        .orderBy(sql`case m.role when 'owner' then 0 when 'admin' then 1 else 2 end`)
        .orderBy('m.joined_at')
        .execute() as Promise<GroupMemberRow[]>;
    },

    async existingUsers(ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
      return rows.map((r) => r.id);
    },

    /** Adds members who are not in yet; the ids actually added. */
    async addMembers(id: number, userIds: number[]): Promise<number[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .insertInto('conversation_members')
        .values(userIds.map((user_id) => ({ conversation_id: id, user_id, role: 'member' as const })))
        .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
        .returning('user_id')
        .execute();
      return rows.map((r) => r.user_id);
    },

    async setRole(id: number, userId: number, role: 'owner' | 'admin' | 'member'): Promise<void> {
      await db
        .updateTable('conversation_members')
        .set({ role })
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .execute();
    },

    async transfer(id: number, from: number, to: number): Promise<void> {
      await sql`
        with g as (update groups set owner_id = ${to} where id = ${id})
        update conversation_members
        set role = case when user_id = ${to} then 'owner' else 'admin' end
        where conversation_id = ${id} and user_id in (${from}, ${to})`.execute(db);
    },

    async update(
      id: number,
      values: { name?: string; description?: string; is_public?: boolean; slug?: string | null },
    ): Promise<void> {
      const { name, ...rest } = values;
      if (name !== undefined)
        await db.updateTable('conversations').set({ title: name }).where('id', '=', id).execute();
      if (Object.keys(rest).length > 0)
        await db.updateTable('groups').set(rest).where('id', '=', id).execute();
    },

    async setAvatar(id: number, url: string): Promise<void> {
      await db.updateTable('conversations').set({ avatar_url: url }).where('id', '=', id).execute();
    },

    async setToken(id: number, token: string | null): Promise<void> {
      await db.updateTable('groups').set({ invite_token: token }).where('id', '=', id).execute();
    },

    /** Display names by user id (the service lines name people). */
    async names(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** Removed by an admin: barred from coming back by the link or by joining (migration 2601). */
    async markRemoved(id: number, userId: number): Promise<void> {
      await db
        .insertInto('group_removed_members')
        .values({ conversation_id: id, user_id: userId })
        .onConflict((oc) =>
          oc.columns(['conversation_id', 'user_id']).doUpdateSet({ removed_at: new Date() }),
        )
        .execute();
    },

    /** An admin added them back: the bar is lifted. */
    async clearRemoved(id: number, userIds: number[]): Promise<void> {
      if (userIds.length === 0) return;
      await db
        .deleteFrom('group_removed_members')
        .where('conversation_id', '=', id)
        .where('user_id', 'in', userIds)
        .execute();
    },

    async wasRemoved(id: number, userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('group_removed_members')
        .select('user_id')
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async memberIds(id: number): Promise<number[]> {
      const rows = await db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', id)
        .execute();
      return rows.map((r) => r.user_id);
    },
  };
}

export type GroupsRepository = ReturnType<typeof groupsRepository>;
