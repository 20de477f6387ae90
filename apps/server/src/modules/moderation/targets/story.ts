import { sql } from 'kysely';
import type { AppContext } from '../../../app-types.ts';
import type { StoriesServices } from '../../stories/module.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Stories: the stories module decides who sees one and hides a reported one from its reporter. */
export function storyTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  const stories = () => ctx.modules.stories as StoriesServices;
  return {
    async visibleTo(id, viewer) {
      try {
        await stories().service.get(id, viewer);
      } catch {
        return null;
      }
      const row = await db.selectFrom('stories').select('user_id').where('id', '=', id).executeTakeFirst();
      return row ? { authorId: row.user_id } : null;
    },
    async hideFor(id, reporterId, reason) {
      await stories().service.hideFromReporter(id, reporterId, reason);
    },
    async preview(id) {
      const row = await db
        .selectFrom('stories')
        .select(['caption', 'thumbnail_url', 'file_url', 'media_type'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        title: 'История',
        text: clip(row.caption),
        image_url: row.thumbnail_url ?? (row.media_type === 'photo' ? row.file_url : null),
        url: `/home?story=${id}`,
        context: [],
      };
    },
    async remove(id) {
      const { rows } = await sql<{ user_id: number; previous: string }>`
        update stories s set status = 'removed' from (select id, status as previous from stories where id = ${id}) old
        where s.id = old.id and old.previous in ('ready', 'suspended') returning s.user_id, old.previous`.execute(
        db,
      );
      const row = rows[0];
      if (!row) return null;
      await stories().cache.changed({ authors: [row.user_id] });
      return { status: row.previous };
    },
    async restore(id) {
      const { rows } = await sql<{ user_id: number }>`
        update stories set status = case when exists (select 1 from user_suspensions s where s.user_id = stories.user_id)
          then 'suspended' else 'ready' end
        where id = ${id} and status = 'removed' returning user_id`.execute(db);
      if (rows[0]) await stories().cache.changed({ authors: [rows[0].user_id] });
    },
  };
}
