import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ConversationRow, MessageRow } from './repository.ts';

export interface NewText {
  conversation_id: number;
  sender_id: number;
  content: string;
  temp_id: string;
  reply_to_id?: number | null;
}

export interface Advance {
  conversation_id: number;
  user_id: number;
  up_to: number;
}

/** Set-based statements for the send and delivery-ack hot paths: one statement for a whole batch. */
export function batchQueries(db: Kysely<Database>) {
  return {
    /**
     * Inserts text messages in the given order (ids ascend with it), skipping any whose (sender, temp_id)
     * is already stored; answers, per input, the stored row with its sender, or null when it was a resend.
     */
    async insertTexts(values: NewText[]): Promise<Array<MessageRow | null>> {
      const { rows } = await sql<MessageRow>`
        with ins as (
          insert into messages (conversation_id, sender_id, content, message_type, temp_id, reply_to_id)
          select v.conversation_id, v.sender_id, v.content, 'text', v.temp_id, v.reply_to_id
          from unnest(${values.map((v) => v.conversation_id)}::int[], ${values.map((v) => v.sender_id)}::int[],
            ${values.map((v) => v.content)}::text[], ${values.map((v) => v.temp_id)}::text[],
            ${values.map((v) => v.reply_to_id ?? null)}::int[])
            with ordinality as v(conversation_id, sender_id, content, temp_id, reply_to_id, n)
          order by v.n
          on conflict (sender_id, temp_id) do nothing
          returning *
        )
        select ins.*, s.username as sender_username, s.name as sender_name, s.avatar_url as sender_avatar_url,
          null::text as forwarded_from_username
        from ins join users s on s.id = ins.sender_id`.execute(db);
      const byKey = new Map(rows.map((r) => [`${r.sender_id}:${r.temp_id}`, r]));
      // A twin later in the same batch is a resend of the first: it gets null like any resend.
      return values.map((v) => {
        const key = `${v.sender_id}:${v.temp_id}`;
        const row = byKey.get(key) ?? null;
        byKey.delete(key);
        return row;
      });
    },

    async messageFacts(ids: number[]) {
      if (ids.length === 0) return [];
      const { rows } = await sql<{ id: number; conversation_id: number; sender_id: number }>`
        select id, conversation_id, sender_id from messages where id = any(${ids}::int[])`.execute(db);
      return rows;
    },

    async conversations(ids: number[]): Promise<ConversationRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await sql<ConversationRow>`
        select id, type, user_low, user_high from conversations where id = any(${ids}::int[])`.execute(db);
      return rows;
    },

    /** Which of these (chat, user) pairs are memberships. */
    async memberPairs(pairs: Array<{ conversation_id: number; user_id: number }>) {
      if (pairs.length === 0) return [];
      const { rows } = await sql<{ conversation_id: number; user_id: number }>`
        select cm.conversation_id, cm.user_id from conversation_members cm
        join unnest(${pairs.map((p) => p.conversation_id)}::int[], ${pairs.map((p) => p.user_id)}::int[])
          as v(conversation_id, user_id) on cm.conversation_id = v.conversation_id and cm.user_id = v.user_id`.execute(
        db,
      );
      return rows;
    },

    /** Moves delivered watermarks forward; answers those that moved (an older or equal ack changes nothing). */
    async advanceDelivered(advances: Advance[]): Promise<Advance[]> {
      if (advances.length === 0) return [];
      const { rows } = await sql<Advance>`
        update conversation_members cm set last_delivered_id = v.up_to
        from unnest(${advances.map((a) => a.conversation_id)}::int[], ${advances.map((a) => a.user_id)}::int[],
          ${advances.map((a) => a.up_to)}::int[]) as v(conversation_id, user_id, up_to)
        where cm.conversation_id = v.conversation_id and cm.user_id = v.user_id
          and cm.last_delivered_id < v.up_to
        returning cm.conversation_id, cm.user_id, v.up_to`.execute(db);
      return rows;
    },
  };
}

export type BatchQueries = ReturnType<typeof batchQueries>;
