import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ConversationRow } from './repository.ts';
import type { SenderCard } from './sender-cards.ts';

export interface NewText {
  conversation_id: number;
  sender_id: number;
  content: string;
  temp_id: string;
  reply_to_id?: number | null;
}

/** What the database gave a new text message; the rest of its row is what was sent. */
export interface StoredText {
  id: number;
  created_at: Date;
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
     * is already stored; answers, per input, the new row's id and time, or null when it was a resend.
     * Scalar `values`, not `unnest` of arrays, and no join for the sender (the caller has it, see
     * sender-cards.ts): on PGlite the join alone cost more than the insert and its trigger's counters.
     */
    async insertTexts(values: NewText[]): Promise<Array<StoredText | null>> {
      const rows = sql.join(
        values.map(
          (v, n) =>
            sql`(${n}::int, ${v.conversation_id}::int, ${v.sender_id}::int, ${v.content}::text, ${v.temp_id}::text, ${v.reply_to_id ?? null}::int)`,
        ),
      );
      const { rows: stored } = await sql<StoredText & { sender_id: number; temp_id: string }>`
        insert into messages (conversation_id, sender_id, content, message_type, temp_id, reply_to_id)
        select v.conversation_id, v.sender_id, v.content, 'text', v.temp_id, v.reply_to_id
        from (values ${rows}) as v(n, conversation_id, sender_id, content, temp_id, reply_to_id)
        order by v.n
        on conflict (sender_id, temp_id) do nothing
        returning id, created_at, sender_id, temp_id`.execute(db);
      const byKey = new Map(stored.map((r) => [`${r.sender_id}:${r.temp_id}`, r]));
      // A twin later in the same batch is a resend of the first: it gets null like any resend.
      return values.map((v) => {
        const key = `${v.sender_id}:${v.temp_id}`;
        const row = byKey.get(key);
        byKey.delete(key);
        return row ? { id: row.id, created_at: row.created_at } : null;
      });
    },

    /** What new messages show of their senders (sender-cards.ts loads the ones it has not kept). */
    async senderCards(ids: number[]): Promise<Array<SenderCard & { id: number }>> {
      const { rows } = await sql<SenderCard & { id: number }>`
        select id, username, name, avatar_url from users where id = any(${ids}::int[])`.execute(db);
      return rows;
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
      // Scalar `values`, not `unnest` of arrays: a third cheaper on PGlite, where every ack pays it.
      const moves = sql.join(
        advances.map((a) => sql`(${a.conversation_id}::int, ${a.user_id}::int, ${a.up_to}::int)`),
      );
      const { rows } = await sql<Advance>`
        update conversation_members cm set last_delivered_id = v.up_to
        from (values ${moves}) as v(conversation_id, user_id, up_to)
        where cm.conversation_id = v.conversation_id and cm.user_id = v.user_id
          and cm.last_delivered_id < v.up_to
        returning cm.conversation_id, cm.user_id, v.up_to`.execute(db);
      return rows;
    },
  };
}

export type BatchQueries = ReturnType<typeof batchQueries>;
