import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type ActionTable = 'post_likes' | 'post_saves' | 'post_reposts';
export type CounterColumn = 'likes_count' | 'reposts_count';

/** Followed authors' posts rank as if they were this much newer (see docs/api/feed-ranking.md). */
export const FOLLOWED_BOOST_SECONDS = 12 * 60 * 60;
/** How many posts beyond the requested page the feed ranks. */
export const FEED_WINDOW = 500;

export interface PostRow {
  id: number;
  user_id: number;
  caption: string;
  media_type: 'video' | 'photo' | 'carousel';
  status: 'uploading' | 'processing' | 'done' | 'failed';
  likes_count: number;
  reposts_count: number;
  comments_count: number;
  ai_tags: string[];
  ai_description: string;
  created_at: Date;
  username: string;
  name: string;
  avatar_url: string | null;
  avatar_thumbnail_url: string | null;
  is_liked: boolean;
  is_saved: boolean;
  is_reposted: boolean;
  is_filtered: boolean;
  files: FileJson[];
}

export interface FileJson {
  file_url: string;
  thumbnail_url: string | null;
  file_type: 'video' | 'image';
  width: number | null;
  height: number | null;
  duration: number | null;
}

type PostsQuery = SelectQueryBuilder<Database, 'posts' | 'users', object>;

/** Every column a Post needs, with the caller's flags (viewer 0 = guest: no flags, nothing filtered). */
function withPostColumns(q: PostsQuery, viewer: number) {
  return q.select([
    'posts.id',
    'posts.user_id',
    'posts.caption',
    'posts.media_type',
    'posts.status',
    'posts.likes_count',
    'posts.reposts_count',
    'posts.comments_count',
    'posts.ai_tags',
    'posts.ai_description',
    'posts.created_at',
    'users.username',
    'users.name',
    'users.avatar_url',
    'users.avatar_thumbnail_url',
    sql<boolean>`exists (select 1 from post_likes l where l.post_id = posts.id and l.user_id = ${viewer})`.as(
      'is_liked',
    ),
    sql<boolean>`exists (select 1 from post_saves s where s.post_id = posts.id and s.user_id = ${viewer})`.as(
      'is_saved',
    ),
    sql<boolean>`exists (select 1 from post_reposts r where r.post_id = posts.id and r.user_id = ${viewer})`.as(
      'is_reposted',
    ),
    sql<boolean>`(posts.ai_tags && array(select b.tag from tag_blacklist b where b.user_id = ${viewer}))`.as(
      'is_filtered',
    ),
    // Files in the same query: one round trip per page.
    sql<FileJson[]>`(select coalesce(json_agg(json_build_object('file_url', f.file_url, 'thumbnail_url',
      f.thumbnail_url, 'file_type', f.file_type, 'width', f.width, 'height', f.height, 'duration', f.duration)
      order by f.position), '[]'::json) from post_files f where f.post_id = posts.id)`.as('files'),
  ]);
}

export function mediaRepository(db: Kysely<Database>) {
  const base = () => db.selectFrom('posts').innerJoin('users', 'users.id', 'posts.user_id');

  return {
    db,

    post(id: number, viewer: number): Promise<PostRow | undefined> {
      return withPostColumns(base(), viewer).where('posts.id', '=', id).executeTakeFirst() as Promise<
        PostRow | undefined
      >;
    },

    /**
     * The feed, ranked: posts the caller has hidden by tag come after all others; then by freshness, with
     * followed authors' posts counted 12 h newer; ties by id. The order does not depend on the clock, so
     * offset paging is stable.
     */
    feed(viewer: number, offset: number, limit: number): Promise<PostRow[]> {
      // Ranked among the newest (offset + limit + FEED_WINDOW) finished posts, so a page never scans the table.
      const window = db
        .selectFrom('posts')
        .select('id')
        .where('status', '=', 'done')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(offset + limit + FEED_WINDOW);
      return withPostColumns(base(), viewer)
        .where('posts.id', 'in', window)
        .orderBy(sql`(posts.ai_tags && array(select b.tag from tag_blacklist b where b.user_id = ${viewer}))`)
        .orderBy(
          sql`extract(epoch from posts.created_at) + case when exists (select 1 from follows f
            where f.follower_id = ${viewer} and f.followee_id = posts.user_id) then ${FOLLOWED_BOOST_SECONDS} else 0 end`,
          'desc',
        )
        .orderBy('posts.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute() as Promise<PostRow[]>;
    },

    userPosts(userId: number, viewer: number, offset: number, limit: number, includeUnfinished: boolean) {
      let q = withPostColumns(base(), viewer).where('posts.user_id', '=', userId);
      if (!includeUnfinished) q = q.where('posts.status', '=', 'done');
      return q
        .orderBy('posts.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute() as Promise<PostRow[]>;
    },

    /** The caller's liked / saved / reposted posts, most recent action first. */
    actedOn(table: ActionTable, viewer: number, offset: number, limit: number) {
      return withPostColumns(base().innerJoin(`${table} as a`, 'a.post_id', 'posts.id') as PostsQuery, viewer)
        .where(sql.ref('a.user_id'), '=', viewer)
        .where('posts.status', '=', 'done')
        .orderBy(sql.ref('a.created_at'), 'desc')
        .orderBy('posts.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute() as Promise<PostRow[]>;
    },

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
          .select(['file_url', 'thumbnail_url'])
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

    async isUrlInUse(url: string) {
      const row = await db
        .selectFrom('post_files')
        .select('id')
        .where((eb) => eb.or([eb('file_url', '=', url), eb('thumbnail_url', '=', url)]))
        .executeTakeFirst();
      return row !== undefined;
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
