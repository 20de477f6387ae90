import type { MessageFileType } from '@kadr/contract';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {} from '../groups/tables.ts';
import type {} from './migrations/2600-messenger-pinned-messages.ts';
import { type FileRow, type MemberRow, type MessageRow, messageQuery } from './repository.ts';

/** A chat's pinned message as its bar shows it. */
export interface PinnedRow {
  id: number;
  sender_id: number;
  sender_name: string;
  content: string;
  message_type: MessageRow['message_type'];
  file_type: MessageFileType | null;
}

/** An attachment with the message it came in. */
export interface SharedFileRow extends FileRow {
  message_sender_id: number;
  message_created_at: Date;
}

// biome-ignore lint/suspicious/noExplicitAny: the builder's row type does not matter to the filter.
type MessagesQuery = SelectQueryBuilder<Database, 'messages as m' | any, any>;

/** Messages `member` may see: after their clear, not deleted for everyone, not hidden for them, not from a suspended sender. */
function visibleTo<Q extends MessagesQuery>(query: Q, member: MemberRow): Q {
  return query.where(
    sql<boolean>`m.conversation_id = ${member.conversation_id} and m.id > ${member.cleared_up_to}
      and m.deleted_at is null
      and not exists (select 1 from message_hidden h where h.user_id = ${member.user_id} and h.message_id = m.id)
      and not exists (select 1 from user_suspensions sus where sus.user_id = m.sender_id)`,
  ) as Q;
}

/** SQL for reading history around a message, a chat's shared files, and its pinned message. */
export function historyRepository(db: Kysely<Database>) {
  return {
    /**
     * Up to `older` visible messages before `messageId` (newest first) and up to `newer` from it on (the
     * message itself first); one more of each is asked for to tell whether more remain.
     */
    async around(member: MemberRow, messageId: number, older: number, newer: number) {
      const [before, after] = await Promise.all([
        visibleTo(messageQuery(db), member)
          .where('m.id', '<', messageId)
          .orderBy('m.id', 'desc')
          .limit(older + 1)
          .execute(),
        visibleTo(messageQuery(db), member)
          .where('m.id', '>=', messageId)
          .orderBy('m.id', 'asc')
          .limit(newer + 1)
          .execute(),
      ]);
      return { before: before as MessageRow[], after: after as MessageRow[] };
    },

    /** Ready attachments of these kinds in the messages `member` may see, newest first. */
    async sharedFiles(
      member: MemberRow,
      kinds: readonly MessageFileType[],
      limit: number,
      offset: number,
    ): Promise<SharedFileRow[]> {
      const rows = await visibleTo(
        db
          .selectFrom('message_files as fl')
          .innerJoin('messages as m', 'm.id', 'fl.message_id')
          .selectAll('fl')
          .select(['m.sender_id as message_sender_id', 'm.created_at as message_created_at']),
        member,
      )
        .where('fl.file_type', 'in', [...kinds])
        .where(sql<boolean>`coalesce(fl.status, 'ready') = 'ready'`)
        .orderBy('m.id', 'desc')
        .orderBy('fl.position', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows as unknown as SharedFileRow[];
    },

    async setPinned(conversationId: number, messageId: number | null): Promise<void> {
      await db
        .updateTable('conversations')
        .set({ pinned_message_id: messageId })
        .where('id', '=', conversationId)
        .execute();
    },

    /** The chat's pinned message while it still exists for everyone. */
    async pinned(conversationId: number): Promise<PinnedRow | null> {
      const { rows } = await sql<PinnedRow>`
        select m.id, m.sender_id, s.name as sender_name, left(m.content, 200) as content, m.message_type,
          (select fl.file_type from message_files fl where fl.message_id = m.id order by fl.position limit 1)
            as file_type
        from conversations c
        join messages m on m.id = c.pinned_message_id and m.deleted_at is null
        join users s on s.id = m.sender_id
        where c.id = ${conversationId}
          and not exists (select 1 from user_suspensions sus where sus.user_id = m.sender_id)`.execute(db);
      return rows[0] ?? null;
    },
  };
}

export type HistoryRepository = ReturnType<typeof historyRepository>;
