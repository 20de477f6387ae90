import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';
import { referencedUrls } from '../../storage/references.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function profilesRepository(db: Kysely<Database>) {
  return {
    findProfile(username: string) {
      return db
        .selectFrom('users')
        .select([
          'id',
          'username',
          'name',
          'bio',
          'avatar_url',
          'avatar_thumbnail_url',
          'followers_count',
          'following_count',
          'posts_count',
          'last_seen',
        ])
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
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

    findUsernameById(id: number) {
      return db.selectFrom('users').select(['id', 'username']).where('id', '=', id).executeTakeFirst();
    },

    /** Prefix match on username or display name, exact username first, then the most followed. */
    search(query: string, limit: number) {
      const q = query.toLowerCase();
      const prefix = `${escapeLike(q)}%`;
      return db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url', 'avatar_thumbnail_url'])
        .where((eb) =>
          eb.or([
            eb(sql`lower(username)`, 'like', prefix),
            eb(sql`lower(name)`, 'like', prefix),
            eb(sql`lower(name)`, 'like', `% ${prefix}`),
          ]),
        )
        .orderBy(sql`lower(username) = ${q}`, 'desc')
        .orderBy('followers_count', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    async updateProfile(userId: number, changes: { name?: string; bio?: string }) {
      if (Object.keys(changes).length === 0) return;
      await db.updateTable('users').set(changes).where('id', '=', userId).execute();
    },

    async setAvatar(userId: number, avatarUrl: string, thumbnailUrl: string) {
      return db.transaction().execute(async (trx) => {
        const previous = await trx
          .selectFrom('users')
          .select(['avatar_url', 'avatar_thumbnail_url'])
          .where('id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        await trx
          .updateTable('users')
          .set({ avatar_url: avatarUrl, avatar_thumbnail_url: thumbnailUrl })
          .where('id', '=', userId)
          .execute();
        return previous;
      });
    },

    /** Any avatar, post or message naming the file (storage/references.ts): content-addressed files are shared. */
    async isUrlInUse(url: string): Promise<boolean> {
      return (await referencedUrls(db, [url])).has(url);
    },

    /**
     * Adds or removes the follow edge idempotently; the counters move only when a row really changed,
     * all in one transaction. Returns the followee's followers_count.
     */
    setFollow(followerId: number, followeeId: number, follow: boolean): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const changed = follow
          ? await trx
              .insertInto('follows')
              .values({ follower_id: followerId, followee_id: followeeId })
              .onConflict((oc) => oc.doNothing())
              .returning('follower_id')
              .executeTakeFirst()
          : await trx
              .deleteFrom('follows')
              .where('follower_id', '=', followerId)
              .where('followee_id', '=', followeeId)
              .returning('follower_id')
              .executeTakeFirst();
        if (!changed) {
          const row = await trx
            .selectFrom('users')
            .select('followers_count')
            .where('id', '=', followeeId)
            .executeTakeFirstOrThrow();
          return row.followers_count;
        }
        const op = follow ? '+' : '-';
        await trx
          .updateTable('users')
          .set((eb) => ({ following_count: eb('following_count', op, 1) }))
          .where('id', '=', followerId)
          .execute();
        const row = await trx
          .updateTable('users')
          .set((eb) => ({ followers_count: eb('followers_count', op, 1) }))
          .where('id', '=', followeeId)
          .returning('followers_count')
          .executeTakeFirstOrThrow();
        return row.followers_count;
      });
    },

    async followingIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('follows')
        .select('followee_id')
        .where('follower_id', '=', userId)
        .execute();
      return rows.map((r) => r.followee_id);
    },

    async followerIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('follows')
        .select('follower_id')
        .where('followee_id', '=', userId)
        .execute();
      return rows.map((r) => r.follower_id);
    },

    /**
     * One page of a follow list, newest follow first: `side` 'followers' lists who follows `userId`,
     * 'following' whom `userId` follows; `hidden` (people walled off from the viewer) are left out.
     * One row past the page tells whether there is more.
     */
    followList(
      userId: number,
      side: 'followers' | 'following',
      page: { offset: number; limit: number },
      hidden: ReadonlySet<number>,
    ) {
      const own = side === 'followers' ? 'followee_id' : 'follower_id';
      const other = side === 'followers' ? 'follower_id' : 'followee_id';
      let query = db
        .selectFrom('follows')
        .innerJoin('users', 'users.id', `follows.${other}`)
        .select([
          'users.id',
          'users.username',
          'users.name',
          'users.avatar_url',
          'users.avatar_thumbnail_url',
        ])
        .where(`follows.${own}`, '=', userId);
      if (hidden.size > 0) query = query.where(`follows.${other}`, 'not in', [...hidden]);
      return query
        .orderBy('follows.created_at', 'desc')
        .orderBy(`follows.${other}`, 'desc')
        .offset(page.offset)
        .limit(page.limit + 1)
        .execute();
    },

    /** Which of `ids` the viewer follows. */
    async followedAmong(viewerId: number, ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('follows')
        .select('followee_id')
        .where('follower_id', '=', viewerId)
        .where('followee_id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => r.followee_id));
    },

    async followersCount(userId: number): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select('followers_count')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row?.followers_count ?? 0;
    },

    async countFollowRequests(targetId: number): Promise<number> {
      const row = await db
        .selectFrom('follow_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('target_id', '=', targetId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async followRequesterIds(targetId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('follow_requests')
        .select('requester_id')
        .where('target_id', '=', targetId)
        .execute();
      return rows.map((r) => r.requester_id);
    },

    async hasFollowRequest(requesterId: number, targetId: number): Promise<boolean> {
      const row = await db
        .selectFrom('follow_requests')
        .select('requester_id')
        .where('requester_id', '=', requesterId)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async addFollowRequest(requesterId: number, targetId: number): Promise<void> {
      await db
        .insertInto('follow_requests')
        .values({ requester_id: requesterId, target_id: targetId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    /** Whether a request was there to remove. */
    async removeFollowRequest(requesterId: number, targetId: number): Promise<boolean> {
      const row = await db
        .deleteFrom('follow_requests')
        .where('requester_id', '=', requesterId)
        .where('target_id', '=', targetId)
        .returning('requester_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The requests waiting for `targetId`, newest first, one row past the page. */
    followRequests(targetId: number, page: { offset: number; limit: number }, hidden: ReadonlySet<number>) {
      let query = db
        .selectFrom('follow_requests')
        .innerJoin('users', 'users.id', 'follow_requests.requester_id')
        .select([
          'users.id',
          'users.username',
          'users.name',
          'users.avatar_url',
          'users.avatar_thumbnail_url',
        ])
        .where('follow_requests.target_id', '=', targetId);
      if (hidden.size > 0) query = query.where('follow_requests.requester_id', 'not in', [...hidden]);
      return query
        .orderBy('follow_requests.created_at', 'desc')
        .orderBy('follow_requests.requester_id', 'desc')
        .offset(page.offset)
        .limit(page.limit + 1)
        .execute();
    },

    async setLastSeen(userId: number, at: Date): Promise<void> {
      await db.updateTable('users').set({ last_seen: at }).where('id', '=', userId).execute();
    },
  };
}

export type ProfilesRepository = ReturnType<typeof profilesRepository>;
