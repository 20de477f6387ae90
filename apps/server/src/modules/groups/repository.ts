import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
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
    async create(values: {
      ownerId: number;
      name: string;
      description: string;
      isPublic: boolean;
      slug: string | null;
      inviteToken: string;
      memberIds: number[];
    }): Promise<number> {
      return db.transaction().execute(async (tx) => {
        const { id } = await tx
          .insertInto('conversations')
          .values({ type: 'group', user_low: null, user_high: null, title: values.name })
          .returning('id')
          .executeTakeFirstOrThrow();
        await tx
          .insertInto('groups')
          .values({
            id,
            slug: values.slug,
            description: values.description,
            is_public: values.isPublic,
            invite_token: values.inviteToken,
            owner_id: values.ownerId,
          })
          .execute();
        await tx
          .insertInto('conversation_members')
          .values([
            { conversation_id: id, user_id: values.ownerId, role: 'owner' },
            ...values.memberIds
              .filter((u) => u !== values.ownerId)
              .map((user_id) => ({ conversation_id: id, user_id, role: 'member' as const })),
          ])
          .execute();
        return id;
      });
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

    async removeMember(id: number, userId: number): Promise<boolean> {
      const rows = await db
        .deleteFrom('conversation_members')
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .returning('user_id')
        .execute();
      return rows.length > 0;
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
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('groups').set({ owner_id: to }).where('id', '=', id).execute();
        await tx
          .updateTable('conversation_members')
          .set({ role: 'admin' })
          .where('conversation_id', '=', id)
          .where('user_id', '=', from)
          .execute();
        await tx
          .updateTable('conversation_members')
          .set({ role: 'owner' })
          .where('conversation_id', '=', id)
          .where('user_id', '=', to)
          .execute();
      });
    },

    async update(
      id: number,
      values: { name?: string; description?: string; is_public?: boolean; slug?: string | null },
    ): Promise<void> {
      await db.transaction().execute(async (tx) => {
        if (values.name !== undefined)
          await tx.updateTable('conversations').set({ title: values.name }).where('id', '=', id).execute();
        const { name: _name, ...rest } = values;
        if (Object.keys(rest).length > 0)
          await tx.updateTable('groups').set(rest).where('id', '=', id).execute();
      });
    },

    async setToken(id: number, token: string | null): Promise<void> {
      await db.updateTable('groups').set({ invite_token: token }).where('id', '=', id).execute();
    },

    async memberIds(id: number): Promise<number[]> {
      const rows = await db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', id)
        .execute();
      return rows.map((r) => r.user_id);
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('conversations').where('id', '=', id).where('type', '=', 'group').execute();
    },

    /** Group ids of a user's memberships (their sockets join these rooms). */
    async idsFor(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('conversation_members as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select('c.id')
        .where('m.user_id', '=', userId)
        .where('c.type', '=', 'group')
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type GroupsRepository = ReturnType<typeof groupsRepository>;
