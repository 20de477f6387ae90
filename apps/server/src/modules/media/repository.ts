import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { referencedUrls } from '../../storage/references.ts';

export type ActionTable = 'post_likes' | 'post_saves' | 'post_reposts';
export type CounterColumn = 'likes_count' | 'reposts_count';

export function mediaRepository(db: Kysely<Database>) {
  return {
    db,

    findUserId(username: string) {
      return db
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    postMeta(id: number) {
      return db
        .selectFrom('posts')
        .select(['id', 'user_id', 'status'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Adds or removes the caller's mark and moves the counter by exactly the rows changed, in one statement:
     * concurrent requests serialise on the post row, so the count stays exact and repeats change nothing.
     */
    async toggle(
      table: ActionTable,
      counter: CounterColumn | null,
      postId: number,
      userId: number,
      on: boolean,
    ) {
      const change = on
        ? sql`insert into ${sql.table(table)} (post_id, user_id) values (${postId}, ${userId})
              on conflict do nothing returning post_id`
        : sql`delete from ${sql.table(table)} where post_id = ${postId} and user_id = ${userId} returning post_id`;
      if (!counter) {
        await sql`${change}`.execute(db);
        return null;
      }
      const sign = on ? sql`+` : sql`-`;
      const result = await sql<{ count: number }>`
        with changed as (${change})
        update posts set ${sql.ref(counter)} = ${sql.ref(counter)} ${sign} (select count(*) from changed)::int
        where id = ${postId}
        returning ${sql.ref(counter)} as count`.execute(db);
      return result.rows[0]?.count ?? 0;
    },

    /** Deletes the post (files, marks and comments cascade) and lowers the author's posts_count if it counted. */
    deletePost(postId: number, authorId: number) {
      return db.transaction().execute(async (trx) => {
        const files = await trx
          .selectFrom('post_files')
          .select(['file_url', 'thumbnail_url', 'screen_url'])
          .where('post_id', '=', postId)
          .execute();
        const deleted = await trx
          .deleteFrom('posts')
          .where('id', '=', postId)
          .where('user_id', '=', authorId)
          .returning('status')
          .executeTakeFirst();
        if (!deleted) return null;
        if (deleted.status === 'done') {
          await trx
            .updateTable('users')
            .set((eb) => ({ posts_count: sql`greatest(${eb.ref('posts_count')} - 1, 0)` }))
            .where('id', '=', authorId)
            .execute();
        }
        return files;
      });
    },

    /** Any post, message or avatar naming the file (storage/references.ts): content-addressed files are shared. */
    async isUrlInUse(url: string) {
      return (await referencedUrls(db, [url])).has(url);
    },

    /**
     * A post whose media is already processed (the demo's prepared variants): inserted done, with its tags, and
     * counted on the author's profile, in one transaction — what the post job's last step writes.
     */
    insertReadyPost(post: {
      userId: number;
      caption: string;
      mediaType: 'video' | 'photo' | 'carousel';
      createdAt: Date;
      tags: string[];
      forSleep: boolean;
      calmScore: number;
      description: string;
      provider: string;
      model: string;
      files: {
        file_type: 'video' | 'image';
        file_url: string;
        thumbnail_url: string;
        /** A photo's screen variant; none for a video. */
        screen_url?: string | null;
        width: number;
        height: number;
        duration: number | null;
      }[];
    }) {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('posts')
          .values({
            user_id: post.userId,
            caption: post.caption,
            media_type: post.mediaType,
            status: 'done',
            ai_tags: post.tags,
            ai_for_sleep: post.forSleep,
            ai_calm_score: post.calmScore,
            ai_description: post.description,
            ai_provider: post.provider,
            ai_model: post.model,
            created_at: post.createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('post_files')
          .values(post.files.map((file, position) => ({ post_id: id, position, ...file })))
          .execute();
        await trx
          .updateTable('users')
          .set((eb) => ({ posts_count: eb('posts_count', '+', 1) }))
          .where('id', '=', post.userId)
          .execute();
        return id;
      });
    },

    insertPost(
      trx: Transaction<Database>,
      post: { userId: number; caption: string; mediaType: 'video' | 'photo' | 'carousel' },
      fileTypes: ('video' | 'image')[],
    ) {
      return (async () => {
        const { id } = await trx
          .insertInto('posts')
          .values({
            user_id: post.userId,
            caption: post.caption,
            media_type: post.mediaType,
            status: 'processing',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('post_files')
          .values(
            fileTypes.map((file_type, position) => ({
              post_id: id,
              position,
              file_type,
              thumbnail_url: null,
            })),
          )
          .execute();
        return id;
      })();
    },

    /** Replaces a finished post's alt text and tags, keeping its `for_sleep` mark; false unless it is done. */
    async setAlt(postId: number, alt: string, tags: string[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const post = await trx
          .selectFrom('posts')
          .select(['status', 'ai_tags'])
          .where('id', '=', postId)
          .forUpdate()
          .executeTakeFirst();
        if (post?.status !== 'done') return false;
        const forSleep = post.ai_tags.includes('for_sleep');
        await trx
          .updateTable('posts')
          .set({ ai_description: alt, ai_tags: forSleep ? ['for_sleep', ...tags] : tags, alt_edited: true })
          .where('id', '=', postId)
          .execute();
        return true;
      });
    },

    setForSleep(postId: number, value: boolean) {
      return db
        .updateTable('posts')
        .set({
          for_sleep_override: value,
          ai_tags: value
            ? sql`array_append(array_remove(ai_tags, 'for_sleep'), 'for_sleep')`
            : sql`array_remove(ai_tags, 'for_sleep')`,
        })
        .where('id', '=', postId)
        .execute();
    },
  };
}

export type MediaRepository = ReturnType<typeof mediaRepository>;
