import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface ChatLineRow {
  id: number;
  stream_id: number;
  user_id: number;
  sender_name: string;
  text: string;
  temp_id: string;
  created_at: Date;
}

/** What decides whether a user may write in a stream's chat, read in one query. */
export interface ChatStandingRow {
  muted: boolean;
  banned: boolean;
  moderator: boolean;
}

type Restriction = 'live_stream_mutes' | 'live_stream_bans';

/** SQL of the live chat: lines, their deletion, mutes, bans, slow mode's gate and moderators. */
export function liveChatRepository(db: Kysely<Database>) {
  return {
    /** Stores a line once per (stream, sender, temp_id); undefined for a repeat. */
    insertLine: (m: { stream_id: number; user_id: number; text: string; temp_id: string }) =>
      db
        .insertInto('live_chat_messages')
        .values(m)
        .onConflict((oc) => oc.columns(['stream_id', 'user_id', 'temp_id']).doNothing())
        .returning(['id', 'created_at'])
        .executeTakeFirst(),

    /**
     * The newest `limit` lines not deleted, oldest first, leaving out the authors `hidden` (people the reader
     * blocked).
     */
    async recentLines(streamId: number, limit: number, hidden: readonly number[]): Promise<ChatLineRow[]> {
      let query = db
        .selectFrom('live_chat_messages as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select([
          'm.id',
          'm.stream_id',
          'm.user_id',
          'u.name as sender_name',
          'm.text',
          'm.temp_id',
          'm.created_at',
        ])
        .where('m.stream_id', '=', streamId)
        .where('m.deleted_at', 'is', null);
      if (hidden.length > 0) query = query.where('m.user_id', 'not in', [...hidden]);
      const rows = await query.orderBy('m.id', 'desc').limit(limit).execute();
      return rows.reverse();
    },

    /** Marks a line deleted; false when it is not this stream's or was deleted already. */
    async deleteLine(streamId: number, lineId: number, by: number): Promise<boolean> {
      const res = await db
        .updateTable('live_chat_messages')
        .set({ deleted_at: sql`now()`, deleted_by: by })
        .where('id', '=', lineId)
        .where('stream_id', '=', streamId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    lineExists: async (streamId: number, lineId: number) =>
      Boolean(
        await db
          .selectFrom('live_chat_messages')
          .select('id')
          .where('id', '=', lineId)
          .where('stream_id', '=', streamId)
          .executeTakeFirst(),
      ),

    async standing(streamId: number, userId: number): Promise<ChatStandingRow> {
      const row = await sql<ChatStandingRow>`select
          exists (select 1 from live_stream_mutes where stream_id = ${streamId} and user_id = ${userId}) as muted,
          exists (select 1 from live_stream_bans where stream_id = ${streamId} and user_id = ${userId}) as banned,
          exists (select 1 from live_stream_guests
            where stream_id = ${streamId} and user_id = ${userId} and moderator) as moderator`.execute(db);
      const r = row.rows[0];
      return { muted: Boolean(r?.muted), banned: Boolean(r?.banned), moderator: Boolean(r?.moderator) };
    },

    async restrict(table: Restriction, streamId: number, userId: number, by: number) {
      await db
        .insertInto(table)
        .values({ stream_id: streamId, user_id: userId, by_user_id: by })
        .onConflict((oc) => oc.columns(['stream_id', 'user_id']).doNothing())
        .execute();
    },

    async lift(table: Restriction, streamId: number, userId: number): Promise<boolean> {
      const res = await db
        .deleteFrom(table)
        .where('stream_id', '=', streamId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /**
     * Slow mode's gate, atomic across nodes: moves the sender's last send to now when the previous one is at
     * least `seconds` old and answers 0, or answers the seconds left to wait.
     */
    async passSlowMode(streamId: number, userId: number, seconds: number): Promise<number> {
      const passed = await sql<{
        ok: number;
      }>`insert into live_chat_slow_mode (stream_id, user_id, last_sent_at)
          values (${streamId}, ${userId}, now())
          on conflict (stream_id, user_id) do update set last_sent_at = now()
          where live_chat_slow_mode.last_sent_at <= now() - make_interval(secs => ${seconds})
          returning 1 as ok`.execute(db);
      if (passed.rows.length > 0) return 0;
      const left = await sql<{ wait: number }>`select greatest(1, ceil(extract(epoch from
          (last_sent_at + make_interval(secs => ${seconds}) - now()))))::int as wait
          from live_chat_slow_mode where stream_id = ${streamId} and user_id = ${userId}`.execute(db);
      return Number(left.rows[0]?.wait ?? seconds);
    },

    setSlowMode: (streamId: number, seconds: number) =>
      db
        .updateTable('live_streams')
        .set({ slow_mode_seconds: seconds, updated_at: sql`now()` })
        .where('id', '=', streamId)
        .returningAll()
        .executeTakeFirst(),

    /** A guest's moderator right; undefined when the user is not this stream's guest. */
    setModerator: (streamId: number, userId: number, moderator: boolean) =>
      db
        .updateTable('live_stream_guests')
        .set({ moderator })
        .where('stream_id', '=', streamId)
        .where('user_id', '=', userId)
        .returning(['added_at', 'moderator'])
        .executeTakeFirst(),
  };
}

export type LiveChatRepository = ReturnType<typeof liveChatRepository>;
