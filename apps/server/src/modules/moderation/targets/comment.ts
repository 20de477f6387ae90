import { REMOVED_BY_MODERATOR } from '@kadr/contract';
import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Comments: a removed one keeps its place in the thread and reads «Удалено модератором». */
export function commentTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  return {
    async visibleTo(id) {
      const row = await db
        .selectFrom('post_comments as c')
        .innerJoin('posts as p', 'p.id', 'c.post_id')
        .select('c.user_id')
        .where('c.id', '=', id)
        .where('p.status', '=', 'done')
        .executeTakeFirst();
      return row ? { authorId: row.user_id } : null;
    },
    async hideFor(id, reporterId) {
      await db
        .insertInto('moderation_hidden')
        .values({ user_id: reporterId, kind: 'comment', target_id: id })
        .onConflict((oc) => oc.doNothing())
        .execute();
      // The reporter's comment counts leave it out too; that per-reader state is cached.
      await ctx.media.cache.changed({ viewers: [reporterId] });
    },
    async preview(id) {
      const row = await db
        .selectFrom('post_comments as c')
        .innerJoin('posts as p', 'p.id', 'c.post_id')
        .select(['c.comment_text', 'c.post_id', 'p.caption'])
        .where('c.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const file = await db
        .selectFrom('post_files')
        .select('thumbnail_url')
        .where('post_id', '=', row.post_id)
        .orderBy('position')
        .executeTakeFirst();
      return {
        title: 'Комментарий к публикации',
        text: clip(row.comment_text),
        image_url: file?.thumbnail_url ?? null,
        url: `/media/${row.post_id}`,
        context: row.caption
          ? [{ author: 'Подпись публикации', text: clip(row.caption, 200), reported: false }]
          : [],
      };
    },
    async remove(id) {
      const row = await db
        .selectFrom('post_comments')
        .select(['comment_text', 'post_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.comment_text === REMOVED_BY_MODERATOR) return null;
      await db
        .updateTable('post_comments')
        .set({ comment_text: REMOVED_BY_MODERATOR })
        .where('id', '=', id)
        .execute();
      await ctx.media.cache.changed({ posts: [row.post_id] });
      return { text: row.comment_text };
    },
    async restore(id, snapshot) {
      if (typeof snapshot.text !== 'string') return;
      await db
        .updateTable('post_comments')
        .set({ comment_text: snapshot.text })
        .where('id', '=', id)
        .where('comment_text', '=', REMOVED_BY_MODERATOR)
        .execute();
    },
  };
}
