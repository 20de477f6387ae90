import { rooms } from '@kadr/contract';
import type { AppContext } from '../../../app-types.ts';
import { clip, type TargetResolver } from './resolver.ts';

/**
 * Live chat lines, stored by the live chat capability in `live_chat_messages`. Anyone signed in may watch
 * a stream and read its chat, so any signed-in person may report a line that is still shown; a removal
 * marks the line deleted (as the host's own delete does) and takes it off every open screen of the stream.
 */
export function liveChatMessageTarget(ctx: AppContext): TargetResolver {
  const db = ctx.db.kysely;
  const announce = (streamId: number, lineId: number) =>
    ctx.gateway.io
      .to(rooms.stream(streamId))
      .emit('live-stream-message-deleted', { stream_id: streamId, message_id: lineId });
  return {
    async visibleTo(id) {
      const row = await db
        .selectFrom('live_chat_messages')
        .select('user_id')
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? { authorId: row.user_id } : null;
    },
    async preview(id) {
      const row = await db
        .selectFrom('live_chat_messages as l')
        .innerJoin('live_streams as s', 's.id', 'l.stream_id')
        .select(['l.stream_id', 'l.text', 's.title'])
        .where('l.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      // The line with a little context: the nearest lines of the same stream still shown.
      const around = await db
        .selectFrom('live_chat_messages as l')
        .innerJoin('users as u', 'u.id', 'l.user_id')
        .select(['l.id', 'l.text', 'u.name'])
        .where('l.stream_id', '=', row.stream_id)
        .where('l.id', '>=', id - 50)
        .where('l.id', '<=', id + 50)
        .where((eb) => eb.or([eb('l.deleted_at', 'is', null), eb('l.id', '=', id)]))
        .orderBy((eb) => eb.fn('abs', [eb('l.id', '-', id)]))
        .orderBy('l.id')
        .limit(4)
        .execute();
      return {
        title: `Сообщение в чате эфира «${row.title}»`,
        text: clip(row.text),
        image_url: null,
        url: `/live/${row.stream_id}`,
        context: around
          .sort((a, b) => a.id - b.id)
          .map((r) => ({ author: r.name, text: clip(r.text, 200), reported: r.id === id })),
      };
    },
    async remove(id, moderatorId) {
      const row = await db
        .updateTable('live_chat_messages')
        .set({ deleted_at: new Date(), deleted_by: moderatorId })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returning('stream_id')
        .executeTakeFirst();
      if (!row) return null;
      announce(row.stream_id, id);
      return {};
    },
    async restore(id) {
      await db
        .updateTable('live_chat_messages')
        .set({ deleted_at: null, deleted_by: null })
        .where('id', '=', id)
        .execute();
    },
  };
}
