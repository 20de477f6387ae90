import { sql } from 'kysely';
import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Posts: removal and suspension are post states ('removed', 'suspended') every feed already leaves out. */
export function postTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  async function changed(postId: number, authorId: number) {
    await ctx.media.cache.changed({ posts: [postId], feed: true });
    await ctx.profiles.invalidate([authorId]);
  }
  return {
    async visibleTo(id) {
      const row = await db
        .selectFrom('posts')
        .select('user_id')
        .where('id', '=', id)
        .where('status', '=', 'done')
        .executeTakeFirst();
      return row ? { authorId: row.user_id } : null;
    },
    async hideFor(id, reporterId) {
      await db
        .insertInto('moderation_hidden')
        .values({ user_id: reporterId, kind: 'post', target_id: id })
        .onConflict((oc) => oc.doNothing())
        .execute();
      // The reporter's feed state (which posts they hid) is cached per reader.
      await ctx.media.cache.changed({ viewers: [reporterId] });
    },
    async preview(id) {
      const post = await db
        .selectFrom('posts')
        .select(['caption', 'user_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!post) return null;
      const file = await db
        .selectFrom('post_files')
        .select(['file_type', 'file_url', 'thumbnail_url'])
        .where('post_id', '=', id)
        .orderBy('position')
        .executeTakeFirst();
      const image = file ? (file.thumbnail_url ?? (file.file_type === 'image' ? file.file_url : null)) : null;
      return {
        title: 'Публикация',
        text: clip(post.caption),
        image_url: image || null,
        url: `/media/${id}`,
        context: [],
      };
    },
    async remove(id) {
      const { rows } = await sql<{ user_id: number; previous: string }>`
        update posts p set status = 'removed' from (select id, status as previous from posts where id = ${id}) old
        where p.id = old.id and old.previous in ('done', 'suspended') returning p.user_id, old.previous`.execute(
        db,
      );
      const row = rows[0];
      if (!row) return null;
      await changed(id, row.user_id);
      return { status: row.previous };
    },
    async restore(id) {
      // Back as it stood, unless its author is suspended now: then hidden with the rest of their content.
      const { rows } = await sql<{ user_id: number }>`
        update posts set status = case when exists (select 1 from user_suspensions s where s.user_id = posts.user_id)
          then 'suspended' else 'done' end
        where id = ${id} and status = 'removed' returning user_id`.execute(db);
      if (rows[0]) await changed(id, rows[0].user_id);
    },
  };
}
