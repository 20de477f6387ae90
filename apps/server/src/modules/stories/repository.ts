import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

export interface StoryRow {
  id: number;
  user_id: number;
  media_type: 'video' | 'photo';
  status: 'processing' | 'ready' | 'failed';
  caption: string;
  file_url: string | null;
  thumbnail_url: string | null;
  screen_url: string | null;
  duration: number;
  ai_tags: string[];
  ai_description: string;
  views_count: number;
  likes_count: number;
  created_at: Date;
}

/** A story row as one reader sees it, with its author. */
export interface ReadStoryRow extends StoryRow {
  is_viewed: boolean;
  is_liked: boolean;
  username: string;
  name: string;
  avatar_url: string | null;
}

const STORY_COLUMNS = sql.raw(
  `s.id, s.user_id, s.media_type, s.status, s.caption, s.file_url, s.thumbnail_url, s.screen_url, s.duration, s.ai_tags,
   s.ai_description, s.views_count, s.likes_count, s.created_at`,
);

const intArray = (list: readonly number[]) => sql`${`{${list.join(',')}}`}::int[]`;

/** SQL of the stories module only (Kysely); rules live in service.ts. */
export function storiesRepository(db: Kysely<Database>) {
  /** Live stories of these authors as `viewer` sees them (minus those they reported), oldest first per author. */
  async function readable(viewer: number, authors: readonly number[], cutoff: Date, groups: number) {
    const { rows } = await sql<ReadStoryRow & { last_at: Date }>`
      with live as (
        select ${STORY_COLUMNS} from stories s
        where s.user_id = any(${intArray(authors)}) and s.status = 'ready' and s.created_at > ${cutoff}
          and not exists (select 1 from story_reports r where r.story_id = s.id and r.user_id = ${viewer})
      ), grp as (
        select user_id, max(created_at) as last_at from live group by user_id
        order by last_at desc, user_id desc limit ${groups}
      )
      select l.*, g.last_at, u.username, u.name, u.avatar_url,
        exists (select 1 from story_views v where v.story_id = l.id and v.user_id = ${viewer}) as is_viewed,
        exists (select 1 from story_likes k where k.story_id = l.id and k.user_id = ${viewer}) as is_liked
      from live l join grp g on g.user_id = l.user_id join users u on u.id = l.user_id
      order by g.last_at desc, l.user_id desc, l.created_at, l.id`.execute(db);
    return rows;
  }

  return {
    db,
    readable,

    /** Ready stories of these authors created after `cutoff`, oldest first; every author has an entry. */
    async liveByAuthors(authors: readonly number[], cutoff: Date): Promise<Map<number, StoryRow[]>> {
      const found = new Map<number, StoryRow[]>(authors.map((a) => [a, []]));
      if (authors.length === 0) return found;
      const { rows } = await sql<StoryRow>`
        select ${STORY_COLUMNS} from stories s
        where s.user_id = any(${intArray(authors)}) and s.status = 'ready' and s.created_at > ${cutoff}
        order by s.created_at, s.id`.execute(db);
      for (const row of rows) found.get(row.user_id)?.push(row);
      return found;
    },

    /** The stories created after `cutoff` that `viewer` viewed, liked and reported, in one round trip. */
    async marksOf(viewer: number, cutoff: Date): Promise<StoryMarks> {
      const { rows } = await sql<{ kind: 'v' | 'l' | 'r'; id: number }>`
        select 'v' as kind, v.story_id as id from story_views v join stories s on s.id = v.story_id
          where v.user_id = ${viewer} and s.created_at > ${cutoff}
        union all
        select 'l', k.story_id from story_likes k join stories s on s.id = k.story_id
          where k.user_id = ${viewer} and s.created_at > ${cutoff}
        union all
        select 'r', r.story_id from story_reports r join stories s on s.id = r.story_id
          where r.user_id = ${viewer} and s.created_at > ${cutoff}`.execute(db);
      const marks = { viewed: new Set<number>(), liked: new Set<number>(), reported: new Set<number>() };
      for (const r of rows)
        (r.kind === 'v' ? marks.viewed : r.kind === 'l' ? marks.liked : marks.reported).add(r.id);
      return marks;
    },

    async insert(
      trx: Transaction<Database>,
      values: {
        user_id: number;
        media_type: 'video' | 'photo';
        caption: string;
        duration: number;
        created_at: Date;
      },
    ): Promise<number> {
      const row = await trx.insertInto('stories').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    byId(id: number): Promise<StoryRow | undefined> {
      return db.selectFrom('stories').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
        StoryRow | undefined
      >;
    },

    /** Marks a processing story ready with its files and tags; false when it is gone or already done. */
    async finish(
      id: number,
      fields: {
        file_url: string;
        thumbnail_url: string;
        /** A photo's screen variant; none for a video or a small photo. */
        screen_url?: string | null;
        duration: number;
        ai_tags: string[];
        ai_description?: string;
      },
    ): Promise<boolean> {
      const res = await db
        .updateTable('stories')
        .set({ ...fields, status: 'ready' })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async fail(id: number): Promise<number | null> {
      const row = await db
        .updateTable('stories')
        .set({ status: 'failed' })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    /** Counts the view once; answers the count after it and whether this call counted. */
    async addView(storyId: number, userId: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('story_views')
          .values({ story_id: storyId, user_id: userId })
          .onConflict((oc) => oc.doNothing())
          .returning('story_id')
          .executeTakeFirst();
        const q = inserted
          ? trx
              .updateTable('stories')
              .set((eb) => ({ views_count: eb('views_count', '+', 1) }))
              .where('id', '=', storyId)
              .returning('views_count')
          : trx.selectFrom('stories').select('views_count').where('id', '=', storyId);
        const row = await q.executeTakeFirst();
        return row?.views_count ?? 0;
      });
    },

    async setLike(storyId: number, userId: number, on: boolean): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const changed = on
          ? await trx
              .insertInto('story_likes')
              .values({ story_id: storyId, user_id: userId })
              .onConflict((oc) => oc.doNothing())
              .returning('story_id')
              .executeTakeFirst()
          : await trx
              .deleteFrom('story_likes')
              .where('story_id', '=', storyId)
              .where('user_id', '=', userId)
              .returning('story_id')
              .executeTakeFirst();
        const q = changed
          ? trx
              .updateTable('stories')
              .set((eb) => ({ likes_count: eb('likes_count', on ? '+' : '-', 1) }))
              .where('id', '=', storyId)
              .returning('likes_count')
          : trx.selectFrom('stories').select('likes_count').where('id', '=', storyId);
        const row = await q.executeTakeFirst();
        return row?.likes_count ?? 0;
      });
    },

    async viewers(storyId: number) {
      return db
        .selectFrom('story_views as v')
        .innerJoin('users as u', 'u.id', 'v.user_id')
        .select(['u.id', 'u.username', 'u.name', 'u.avatar_url', 'v.created_at'])
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('story_likes as k')
                .select('k.story_id')
                .whereRef('k.story_id', '=', 'v.story_id')
                .whereRef('k.user_id', '=', 'v.user_id'),
            )
            .as('liked'),
        )
        .where('v.story_id', '=', storyId)
        .orderBy('v.created_at', 'desc')
        .orderBy('u.id', 'desc')
        .execute();
    },

    async report(storyId: number, userId: number, reason: string) {
      await db
        .insertInto('story_reports')
        .values({ story_id: storyId, user_id: userId, reason })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async reported(storyId: number, userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('story_reports')
        .select('id')
        .where('story_id', '=', storyId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async remove(id: number) {
      return db
        .deleteFrom('stories')
        .where('id', '=', id)
        .returning(['file_url', 'thumbnail_url', 'screen_url'])
        .executeTakeFirst();
    },

    /** Removes every story created at or before `cutoff` (any status); their file URLs. */
    async removeExpired(cutoff: Date) {
      return db
        .deleteFrom('stories')
        .where('created_at', '<=', cutoff)
        .returning(['id', 'user_id', 'file_url', 'thumbnail_url', 'screen_url'])
        .execute();
    },

    async any(): Promise<boolean> {
      return (await db.selectFrom('stories').select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    async isUrlInUse(url: string): Promise<boolean> {
      const row = await db
        .selectFrom('stories')
        .select('id')
        .where((eb) =>
          eb.or([eb('file_url', '=', url), eb('thumbnail_url', '=', url), eb('screen_url', '=', url)]),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    async previews(ids: number[], cutoff: Date) {
      return db
        .selectFrom('stories')
        .select(['id', 'media_type', 'file_url', 'thumbnail_url', 'status', 'created_at'])
        .where('id', 'in', ids)
        .where('created_at', '>', cutoff)
        .execute();
    },

    /** Newest finished posts of these authors (the home grid), one page of ids. */
    async postIdsBy(authors: readonly number[], offset: number, limit: number): Promise<number[]> {
      if (authors.length === 0) return [];
      const { rows } = await sql<{ id: number }>`
        select id from posts where user_id = any(${intArray(authors)}) and status = 'done'
        order by created_at desc, id desc offset ${offset} limit ${limit}`.execute(db);
      return rows.map((r) => r.id);
    },
  };
}

export type StoriesRepository = ReturnType<typeof storiesRepository>;

/** What a viewer did to live stories: the ids viewed, liked and reported. */
export interface StoryMarks {
  viewed: ReadonlySet<number>;
  liked: ReadonlySet<number>;
  reported: ReadonlySet<number>;
}
