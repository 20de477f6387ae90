import type { Post, PostFile } from '@kadr/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FeedCandidate, FeedViewer } from './feed-ranking.ts';
import type { ActionTable } from './repository.ts';

/** Everything a Post shows that is the same for every reader (the author's summary is cached apart). */
export type PostBody = Omit<Post, 'user' | 'is_liked' | 'is_saved' | 'is_reposted' | 'is_filtered'>;
export type PostAuthor = Post['user'];

/** The caller's marks on a post, as bits. */
export const LIKED = 1;
export const SAVED = 2;
export const REPOSTED = 4;

interface BodyRow extends Omit<PostBody, 'created_at' | 'files' | 'failure_reason'> {
  created_at: Date;
  files: PostFile[];
  failure_reason: string | null;
}

const ids = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::int[]`;

/** The read side of the feed: small indexed queries whose results the read cache keeps. */
export function readRepository(db: Kysely<Database>) {
  return {
    /** The newest `limit` finished posts' ranking facts, newest first (index posts_feed_idx). */
    async newest(limit: number): Promise<FeedCandidate[]> {
      const { rows } = await sql<{ id: number; user_id: number; us: string; ai_tags: string[] }>`
        select id, user_id, ((extract(epoch from created_at) * 1000000)::bigint)::text as us, ai_tags
        from posts where status = 'done' order by created_at desc, id desc limit ${limit}`.execute(db);
      return rows.map((r) => ({ id: r.id, userId: r.user_id, createdUs: Number(r.us), tags: r.ai_tags }));
    },

    /** Posts by id with their files (one round trip), whatever their status. */
    async bodies(list: readonly number[]): Promise<Map<number, PostBody>> {
      const { rows } = await sql<BodyRow>`
        select p.id, p.user_id, p.caption, p.media_type, p.status, p.likes_count, p.reposts_count,
          p.comments_count, p.ai_tags, p.ai_description, p.ai_objects, p.failure_reason, p.created_at,
          (select coalesce(json_agg(json_build_object('file_url', f.file_url, 'thumbnail_url', f.thumbnail_url,
            'screen_url', f.screen_url, 'file_type', f.file_type, 'width', f.width, 'height', f.height,
            'duration', f.duration)
            order by f.position), '[]'::json) from post_files f where f.post_id = p.id) as files
        from posts p where p.id = any(${ids(list)})`.execute(db);
      return new Map(
        rows.map(({ failure_reason, ...r }) => [
          r.id,
          { ...r, created_at: r.created_at.toISOString(), ...(failure_reason ? { failure_reason } : {}) },
        ]),
      );
    },

    async authors(list: readonly number[]): Promise<Map<number, PostAuthor>> {
      const { rows } = await sql<PostAuthor & { id: number }>`
        select id, username, name, avatar_url, avatar_thumbnail_url from users
        where id = any(${ids(list)})`.execute(db);
      return new Map(
        rows.map((r) => [
          r.id,
          {
            username: r.username,
            name: r.name,
            avatar_url: r.avatar_url,
            avatar_thumbnail_url: r.avatar_thumbnail_url,
          },
        ]),
      );
    },

    /** The caller's tag blacklist, the authors they follow and the posts they reported, in one round trip. */
    async viewer(viewer: number): Promise<FeedViewer> {
      const { rows } = await sql<{ kind: 'tag' | 'followee' | 'hidden' | 'comment'; value: string }>`
        select 'tag' as kind, tag as value from tag_blacklist where user_id = ${viewer}
        union all
        select 'followee', followee_id::text from follows where follower_id = ${viewer}
        union all
        select 'hidden', target_id::text from moderation_hidden where user_id = ${viewer} and kind = 'post'
        union all
        select 'comment', c.post_id::text from moderation_hidden h join post_comments c on c.id = h.target_id
          where h.user_id = ${viewer} and h.kind = 'comment'
            and not exists (select 1 from user_suspensions s where s.user_id = c.user_id)`.execute(db);
      const blacklist = new Set<string>();
      const followees = new Set<number>();
      const hiddenPosts = new Set<number>();
      const hiddenComments = new Map<number, number>();
      for (const r of rows) {
        if (r.kind === 'tag') blacklist.add(r.value);
        else if (r.kind === 'followee') followees.add(Number(r.value));
        else if (r.kind === 'hidden') hiddenPosts.add(Number(r.value));
        else hiddenComments.set(Number(r.value), (hiddenComments.get(Number(r.value)) ?? 0) + 1);
      }
      return { blacklist, followees, hiddenPosts, hiddenComments };
    },

    /** The caller's like/save/repost marks on these posts, in one query; posts without a mark are absent. */
    async flags(viewer: number, list: readonly number[]): Promise<Map<number, number>> {
      const { rows } = await sql<{ post_id: number; bit: number }>`
        select post_id, ${sql.lit(LIKED)} as bit from post_likes
          where user_id = ${viewer} and post_id = any(${ids(list)})
        union all
        select post_id, ${sql.lit(SAVED)} from post_saves
          where user_id = ${viewer} and post_id = any(${ids(list)})
        union all
        select post_id, ${sql.lit(REPOSTED)} from post_reposts
          where user_id = ${viewer} and post_id = any(${ids(list)})`.execute(db);
      const marks = new Map<number, number>();
      for (const r of rows) marks.set(r.post_id, (marks.get(r.post_id) ?? 0) | r.bit);
      return marks;
    },

    /** One page of a user's post ids, newest first (their own unfinished posts too when asked). */
    async userPostIds(userId: number, offset: number, limit: number, includeUnfinished: boolean) {
      let q = db.selectFrom('posts').select('id').where('user_id', '=', userId);
      if (!includeUnfinished) q = q.where('status', '=', 'done');
      // Removed by a moderator, or hidden while the author is suspended: not even the author lists them.
      else q = q.where(sql<boolean>`status not in ('removed', 'suspended')`);
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** One page of the caller's liked / saved / reposted post ids, most recent action first. */
    async actedOnIds(table: ActionTable, viewer: number, offset: number, limit: number) {
      const rows = await db
        .selectFrom(`${table} as a`)
        .innerJoin('posts', 'posts.id', 'a.post_id')
        .select('posts.id')
        .where('a.user_id', '=', viewer)
        .where('posts.status', '=', 'done')
        .orderBy('a.created_at', 'desc')
        .orderBy('posts.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type ReadRepository = ReturnType<typeof readRepository>;
