import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Accounts: anyone signed in can report one; what a moderator does is suspend it. */
export function userTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  return {
    async visibleTo(id) {
      const row = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
      return row ? { authorId: row.id } : null;
    },
    async preview(id) {
      const row = await db
        .selectFrom('users')
        .select(['username', 'name', 'bio', 'avatar_thumbnail_url', 'avatar_url'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        title: `Профиль @${row.username}`,
        text: clip(row.bio ? `${row.name}\n${row.bio}` : row.name),
        image_url: row.avatar_thumbnail_url ?? row.avatar_url,
        url: `/${row.username}`,
        context: [],
      };
    },
  };
}
