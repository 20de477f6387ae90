import { sql } from 'kysely';
import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/** Chat messages (personal, group, channel): only a member of the chat can report one. */
export function messageTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  return {
    async visibleTo(id, viewer) {
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversation_members as cm', (j) =>
          j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', viewer),
        )
        .select(['m.sender_id', 'm.message_type'])
        .where('m.id', '=', id)
        .where('m.deleted_at', 'is', null)
        .whereRef('m.id', '>', 'cm.cleared_up_to')
        .executeTakeFirst();
      if (!row || row.message_type === 'service' || row.message_type === 'call') return null;
      return { authorId: row.sender_id };
    },
    async hideFor(id, reporterId) {
      await db
        .insertInto('message_hidden')
        .values({ user_id: reporterId, message_id: id })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async preview(id) {
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(['m.conversation_id', 'm.content', 'c.type', 'c.title'])
        .where('m.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      // A little context: up to two messages before and one after, as the chat shows them.
      const { rows } = await sql<{ id: number; content: string; name: string }>`
        (select m.id, m.content, u.name from messages m join users u on u.id = m.sender_id
          where m.conversation_id = ${row.conversation_id} and m.id < ${id} and m.deleted_at is null
            and m.message_type in ('text', 'media') order by m.id desc limit 2)
        union all
        (select m.id, m.content, u.name from messages m join users u on u.id = m.sender_id
          where m.conversation_id = ${row.conversation_id} and m.id >= ${id}
            and (m.deleted_at is null or m.id = ${id}) and m.message_type in ('text', 'media') order by m.id limit 2)
        order by id`.execute(db);
      const file = await db
        .selectFrom('message_files')
        .select(['thumbnail_url', 'file_url', 'file_type'])
        .where('message_id', '=', id)
        .orderBy('position')
        .executeTakeFirst();
      const where =
        row.type === 'group'
          ? ` в группе «${row.title ?? ''}»`
          : row.type === 'channel'
            ? ` в канале «${row.title ?? ''}»`
            : '';
      return {
        title: `Сообщение${where}`,
        text: clip(row.content),
        image_url: file ? (file.thumbnail_url ?? (file.file_type === 'image' ? file.file_url : null)) : null,
        url: null,
        context: rows.map((r) => ({ author: r.name, text: clip(r.content, 200), reported: r.id === id })),
      };
    },
    async remove(id) {
      const row = await db
        .selectFrom('messages')
        .select(['sender_id', 'content', 'deleted_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.deleted_at !== null) return null;
      // Deleted for everyone exactly as its sender could (the chat's devices hear `message-deleted`);
      // when the sender is no longer in the chat, the row is marked directly.
      try {
        await ctx.messenger.messages.remove(row.sender_id, id, 'everyone');
      } catch {
        await db
          .updateTable('messages')
          .set({ content: '', deleted_at: new Date() })
          .where('id', '=', id)
          .execute();
      }
      return { content: row.content };
    },
    async restore(id, snapshot) {
      if (typeof snapshot.content !== 'string') return;
      await db
        .updateTable('messages')
        .set({ content: snapshot.content, deleted_at: null })
        .where('id', '=', id)
        .where('deleted_at', 'is not', null)
        .execute();
    },
  };
}
