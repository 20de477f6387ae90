import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
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

    async setLastSeen(userId: number, at: Date): Promise<void> {
      await db.updateTable('users').set({ last_seen: at }).where('id', '=', userId).execute();
    },
  };
}

export type ProfilesRepository = ReturnType<typeof profilesRepository>;
