import type { ReplyPreview } from '@kadr/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {} from '../groups/tables.ts';

export interface ConversationRow {
  id: number;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  user_low: number | null;
  user_high: number | null;
}

export interface MemberRow {
  conversation_id: number;
  user_id: number;
  pin_order: number | null;
  last_read_id: number;
  last_delivered_id: number;
  cleared_up_to: number;
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  sender_id: number;
  content: string;
  message_type: 'text' | 'media' | 'call' | 'service';
  temp_id: string | null;
  is_forwarded: boolean;
  forwarded_from_id: number | null;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
  sender_username: string;
  sender_name: string;
  sender_avatar_url: string | null;
  forwarded_from_username: string | null;
  reply_to_id: number | null;
  views_count: number;
  /** Set on a story reply (the stories module adds the column). */
  story_id?: number | null;
}

/** A member's place in a group or channel: role and channel rights. */
export interface MembershipRow extends MemberRow {
  role: 'owner' | 'admin' | 'member' | 'subscriber';
  can_post: boolean;
  can_edit_others: boolean;
  can_delete_others: boolean;
}

export interface FileRow {
  id: number;
  uploader_id: number;
  message_id: number | null;
  position: number;
  file_type: 'photo' | 'image' | 'gif' | 'video' | 'document' | 'voice';
  file_url: string;
  thumbnail_url: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  file_size: number;
  file_name: string | null;
  waveform?: string | null;
  status?: 'processing' | 'ready' | 'failed';
}

export type NewFile = Omit<FileRow, 'id' | 'message_id' | 'position'>;

/** A message with its sender and the forwarded-from author: the chat list, the history and a window around one start here. */
export function messageQuery(db: Kysely<Database>) {
  return db
    .selectFrom('messages as m')
    .innerJoin('users as s', 's.id', 'm.sender_id')
    .leftJoin('users as f', 'f.id', 'm.forwarded_from_id')
    .select([
      'm.id',
      'm.conversation_id',
      'm.sender_id',
      'm.content',
      'm.message_type',
      'm.temp_id',
      'm.is_forwarded',
      'm.forwarded_from_id',
      'm.created_at',
      'm.edited_at',
      'm.deleted_at',
      'm.story_id',
      's.username as sender_username',
      's.name as sender_name',
      's.avatar_url as sender_avatar_url',
      'f.username as forwarded_from_username',
      'm.reply_to_id',
      'm.views_count',
    ]);
}

function queries(db: Kysely<Database>) {
  return {
    findUser(id: number) {
      return db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url', 'avatar_thumbnail_url', 'last_seen'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The personal chat of two users, or the favorites chat when both ids are the same. */
    findPair(a: number, b: number): Promise<ConversationRow | undefined> {
      return db
        .selectFrom('conversations')
        .select(['id', 'type', 'user_low', 'user_high'])
        .where('user_low', '=', Math.min(a, b))
        .where('user_high', '=', Math.max(a, b))
        .executeTakeFirst();
    },

    async getOrCreatePair(a: number, b: number): Promise<ConversationRow> {
      const low = Math.min(a, b);
      const high = Math.max(a, b);
      const type = low === high ? 'favorites' : 'personal';
      await db
        .insertInto('conversations')
        .values({ type, user_low: low, user_high: high })
        .onConflict((oc) => oc.columns(['user_low', 'user_high']).doNothing())
        .execute();
      const row = await db
        .selectFrom('conversations')
        .select(['id', 'type', 'user_low', 'user_high'])
        .where('user_low', '=', low)
        .where('user_high', '=', high)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('conversation_members')
        .values(
          [...new Set([low, high])].map((user_id) => ({ conversation_id: row.id, user_id, pin_order: null })),
        )
        .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doNothing())
        .execute();
      return row;
    },

    /** A group's or channel's chat with the user's membership (undefined member when not in it). */
    async roomChat(
      id: number,
      type: 'group' | 'channel',
      userId: number,
    ): Promise<{ conversation: ConversationRow; me: MembershipRow | undefined } | undefined> {
      const row = await db
        .selectFrom('conversations as c')
        .leftJoin('conversation_members as me', (j) =>
          j.onRef('me.conversation_id', '=', 'c.id').on('me.user_id', '=', userId),
        )
        .select([
          'c.id',
          'c.type',
          'c.user_low',
          'c.user_high',
          'me.user_id',
          'me.pin_order',
          'me.last_read_id',
          'me.last_delivered_id',
          'me.cleared_up_to',
          'me.role',
          'me.can_post',
          'me.can_edit_others',
          'me.can_delete_others',
        ])
        .where('c.id', '=', id)
        .where('c.type', '=', type)
        .executeTakeFirst();
      if (!row) return undefined;
      const conversation = { id: row.id, type: row.type, user_low: row.user_low, user_high: row.user_high };
      if (row.user_id === null) return { conversation, me: undefined };
      return {
        conversation,
        me: {
          conversation_id: row.id,
          user_id: row.user_id,
          pin_order: row.pin_order,
          last_read_id: row.last_read_id as number,
          last_delivered_id: row.last_delivered_id as number,
          cleared_up_to: row.cleared_up_to as number,
          role: row.role as MembershipRow['role'],
          can_post: row.can_post as boolean,
          can_edit_others: row.can_edit_others as boolean,
          can_delete_others: row.can_delete_others as boolean,
        },
      };
    },

    /**
     * The members whose watermarks decide a group message's receipts ("read once any other member read
     * it"): the two furthest readers and the two furthest receivers — one of them is not the sender.
     */
    async receiptMembers(conversationId: number): Promise<MemberRow[]> {
      const cols = [
        'conversation_id',
        'user_id',
        'pin_order',
        'last_read_id',
        'last_delivered_id',
        'cleared_up_to',
      ] as const;
      const [read, delivered] = await Promise.all([
        db
          .selectFrom('conversation_members')
          .select(cols)
          .where('conversation_id', '=', conversationId)
          .orderBy('last_read_id', 'desc')
          .limit(2)
          .execute(),
        db
          .selectFrom('conversation_members')
          .select(cols)
          .where('conversation_id', '=', conversationId)
          .orderBy('last_delivered_id', 'desc')
          .limit(2)
          .execute(),
      ]);
      const out = new Map<number, MemberRow>();
      for (const m of [...read, ...delivered]) out.set(m.user_id, m);
      return [...out.values()];
    },

    /** Quoted originals of replies (deleted ones without their text). */
    async replyPreviews(ids: number[]): Promise<ReplyPreview[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('users as s', 's.id', 'm.sender_id')
        .select([
          'm.id',
          'm.sender_id',
          's.name as sender_name',
          'm.content',
          'm.message_type',
          'm.deleted_at',
        ])
        .where('m.id', 'in', ids)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        sender_id: r.sender_id,
        sender_name: r.sender_name,
        content: r.deleted_at ? '' : r.content.slice(0, 200),
        message_type: r.message_type,
        is_deleted: r.deleted_at !== null,
      }));
    },

    findConversation(id: number): Promise<ConversationRow | undefined> {
      return db
        .selectFrom('conversations')
        .select(['id', 'type', 'user_low', 'user_high'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    members(conversationIds: number[]): Promise<MemberRow[]> {
      if (conversationIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('conversation_members')
        .select([
          'conversation_id',
          'user_id',
          'pin_order',
          'last_read_id',
          'last_delivered_id',
          'cleared_up_to',
        ])
        .where('conversation_id', 'in', conversationIds)
        .execute();
    },

    /** Inserts unless (sender, temp_id) exists; the new id, or null when it already existed. */
    async insertMessage(values: {
      conversation_id: number;
      sender_id: number;
      content: string;
      message_type: 'text' | 'media' | 'call' | 'service';
      temp_id: string | null;
      is_forwarded?: boolean;
      forwarded_from_id?: number | null;
      reply_to_id?: number | null;
      story_id?: number | null;
    }): Promise<number | null> {
      const row = await db
        .insertInto('messages')
        .values(values)
        .onConflict((oc) => oc.columns(['sender_id', 'temp_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** Like insertMessage, but answers the stored row with its sender in the same statement (the send hot path). */
    async insertMessageRow(values: {
      conversation_id: number;
      sender_id: number;
      content: string;
      temp_id: string;
    }): Promise<MessageRow | null> {
      const { rows } = await sql<MessageRow>`
        with ins as (
          insert into messages (conversation_id, sender_id, content, message_type, temp_id)
          values (${values.conversation_id}, ${values.sender_id}, ${values.content}, 'text', ${values.temp_id})
          on conflict (sender_id, temp_id) do nothing
          returning *
        )
        select ins.*, s.username as sender_username, s.name as sender_name, s.avatar_url as sender_avatar_url,
          null::text as forwarded_from_username
        from ins join users s on s.id = ins.sender_id`.execute(db);
      return rows[0] ?? null;
    },

    async findByTempId(senderId: number, tempId: string): Promise<number | null> {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('sender_id', '=', senderId)
        .where('temp_id', '=', tempId)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    messagesByIds(ids: number[]): Promise<MessageRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return messageQuery(db).where('m.id', 'in', ids).orderBy('m.id').execute();
    },

    /** A page from the newest end as the given member sees it; newest first. */
    page(member: MemberRow, limit: number, offset: number): Promise<MessageRow[]> {
      return (
        messageQuery(db)
          .where('m.conversation_id', '=', member.conversation_id)
          .where('m.id', '>', member.cleared_up_to)
          .where('m.deleted_at', 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('message_hidden as h')
                  .select('h.message_id')
                  .whereRef('h.message_id', '=', 'm.id')
                  .where('h.user_id', '=', member.user_id),
              ),
            ),
          )
          // A sender suspended by a moderator is hidden until the suspension is lifted.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('user_suspensions as sus')
                  .select('sus.user_id')
                  .whereRef('sus.user_id', '=', 'm.sender_id'),
              ),
            ),
          )
          .orderBy('m.id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute()
      );
    },

    async isHidden(userId: number, messageId: number): Promise<boolean> {
      const row = await db
        .selectFrom('message_hidden')
        .select('message_id')
        .where('user_id', '=', userId)
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async hide(userId: number, messageId: number): Promise<void> {
      await db
        .insertInto('message_hidden')
        .values({ user_id: userId, message_id: messageId })
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .execute();
    },

    async updateContent(id: number, content: string, editedAt: Date): Promise<void> {
      await db.updateTable('messages').set({ content, edited_at: editedAt }).where('id', '=', id).execute();
    },

    /** Returns the URLs of the files the message held, for the caller to release. */
    async markDeleted(id: number, at: Date): Promise<string[]> {
      await db.updateTable('messages').set({ content: '', deleted_at: at }).where('id', '=', id).execute();
      const files = await db
        .deleteFrom('message_files')
        .where('message_id', '=', id)
        .returning(['file_url', 'thumbnail_url'])
        .execute();
      return files.flatMap((f) => [f.file_url, ...(f.thumbnail_url ? [f.thumbnail_url] : [])]);
    },

    async latestMessageId(conversationId: number): Promise<number> {
      const row = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      return row?.id ?? 0;
    },

    /** Moves the read (and with it the delivered) watermark forward; true when it moved. */
    async advanceRead(conversationId: number, userId: number, upTo: number): Promise<boolean> {
      const rows = await db
        .updateTable('conversation_members')
        .set({ last_read_id: upTo, last_delivered_id: sql`greatest(last_delivered_id, ${upTo})` })
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .where('last_read_id', '<', upTo)
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    /** Channel posts in (after, upTo] were seen by one more subscriber. */
    async countViews(conversationId: number, after: number, upTo: number): Promise<void> {
      await db
        .updateTable('messages')
        .set((eb) => ({ views_count: eb('views_count', '+', 1) }))
        .where('conversation_id', '=', conversationId)
        .where('id', '>', after)
        .where('id', '<=', upTo)
        .execute();
    },

    async advanceDelivered(conversationId: number, userId: number, upTo: number): Promise<boolean> {
      const rows = await db
        .updateTable('conversation_members')
        .set({ last_delivered_id: upTo })
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .where('last_delivered_id', '<', upTo)
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    async nextPinOrder(userId: number): Promise<number> {
      const row = await db
        .selectFrom('conversation_members')
        .select((eb) => eb.fn.max('pin_order').as('max'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return (row?.max ?? 0) + 1;
    },

    async setPin(conversationId: number, userId: number, pinOrder: number | null): Promise<void> {
      await db
        .updateTable('conversation_members')
        .set({ pin_order: pinOrder })
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .execute();
    },

    /** Removes the chat's history for one member: everything up to `upTo`, and unpins. */
    async clear(conversationId: number, userId: number, upTo: number): Promise<void> {
      await db
        .updateTable('conversation_members')
        .set({
          cleared_up_to: sql`greatest(cleared_up_to, ${upTo})`,
          last_read_id: sql`greatest(last_read_id, ${upTo})`,
          last_delivered_id: sql`greatest(last_delivered_id, ${upTo})`,
          pin_order: null,
        })
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .execute();
    },

    insertFiles(rows: NewFile[]): Promise<FileRow[]> {
      return db.insertInto('message_files').values(rows).returningAll().execute() as Promise<FileRow[]>;
    },

    uploadedFiles(ids: number[]): Promise<FileRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('message_files').selectAll().where('id', 'in', ids).execute() as Promise<
        FileRow[]
      >;
    },

    /** Binds unsent uploads of this user to a message, in the given order; how many were bound. */
    async attachFiles(messageId: number, uploaderId: number, ids: number[]): Promise<number> {
      let bound = 0;
      for (const [position, id] of ids.entries()) {
        const res = await db
          .updateTable('message_files')
          .set({ message_id: messageId, position })
          .where('id', '=', id)
          .where('uploader_id', '=', uploaderId)
          .where('message_id', 'is', null)
          .executeTakeFirst();
        bound += Number(res.numUpdatedRows);
      }
      return bound;
    },

    /** Copies a message's files to another message (forwarding; storage keys are shared). */
    async copyFiles(fromMessageId: number, toMessageId: number, uploaderId: number): Promise<void> {
      await sql`
        insert into message_files (uploader_id, message_id, position, file_type, file_url, thumbnail_url,
          width, height, duration, file_size, file_name, waveform)
        select ${uploaderId}, ${toMessageId}, position, file_type, file_url, thumbnail_url,
          width, height, duration, file_size, file_name, waveform
        from message_files where message_id = ${fromMessageId}`.execute(db);
    },

    filesOf(messageIds: number[]): Promise<FileRow[]> {
      if (messageIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('message_files')
        .selectAll()
        .where('message_id', 'in', messageIds)
        .orderBy('message_id')
        .orderBy('position')
        .execute() as Promise<FileRow[]>;
    },
  };
}

export type MessengerQueries = ReturnType<typeof queries>;

/** SQL for conversations, members and messages. Chat list and search queries live in chats-repository.ts. */
export function messengerRepository(db: Kysely<Database>) {
  return {
    ...queries(db),
    transaction<T>(fn: (tx: MessengerQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(queries(trx)));
    },
  };
}

export type MessengerRepository = ReturnType<typeof messengerRepository>;
