import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Groups and channels: members, or anyone when public, can report one; its owner answers for it. */
export function conversationTarget(ctx: AppContext, type: 'group' | 'channel'): TargetResolver {
  const db = ctx.db.kysely;
  return {
    async visibleTo(id, viewer) {
      const row = await db
        .selectFrom('conversations as c')
        .innerJoin('groups as g', 'g.id', 'c.id')
        .select(['g.owner_id', 'g.is_public'])
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('conversation_members as m')
                .select('m.user_id')
                .whereRef('m.conversation_id', '=', 'c.id')
                .where('m.user_id', '=', viewer),
            )
            .as('is_member'),
        )
        .where('c.id', '=', id)
        .where('c.type', '=', type)
        .executeTakeFirst();
      if (!row || !(row.is_public || row.is_member)) return null;
      return { authorId: row.owner_id };
    },
    async preview(id) {
      const row = await db
        .selectFrom('conversations as c')
        .innerJoin('groups as g', 'g.id', 'c.id')
        .select(['c.title', 'c.avatar_url', 'g.description', 'g.slug'])
        .where('c.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        title: `${type === 'group' ? 'Группа' : 'Канал'} «${row.title ?? ''}»`,
        text: clip(row.description),
        image_url: row.avatar_url,
        url: row.slug ? `/messenger/${type}/${row.slug}` : null,
        context: [],
      };
    },
  };
}
