import {
  type ChatRef,
  type ChatTarget,
  type ConversationResponse,
  type DeleteMessageResponse,
  type DeleteScope,
  ErrorCode,
  ErrorText,
  Limits,
  type MarkReadResponse,
  type Message,
  type SendMessageBody,
} from '@kadr/contract';
import { batcher } from '../../lib/batcher.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { BatchQueries, NewText, StoredText } from './batch-queries.ts';
import type { ChatListChange } from './chat-list-cache.ts';
import {
  type ConversationTools,
  conversationTools,
  isRoomChat,
  type Loaded,
  pairMembers,
} from './conversations.ts';
import { deliveryAcks } from './delivery.ts';
import type { MessengerFacts } from './facts-cache.ts';
import type {
  ConversationRow,
  MemberRow,
  MembershipRow,
  MessageRow,
  MessengerRepository,
} from './repository.ts';
import type { RoomWriters } from './room-writers.ts';
import { type SenderCard, senderCards } from './sender-cards.ts';

const FOREIGN_KEY_VIOLATION = '23503';

const emptyMessage = () => errors.validation({ content: ErrorText.messageEmpty }, ErrorText.messageEmpty);

/** The chat a send names: a personal peer (or oneself: favorites), a group or a channel. */
export type SendTarget =
  | { kind: 'personal'; otherUserId: number }
  | { kind: 'group' | 'channel'; id: number };

export function sendTarget(
  body: Pick<SendMessageBody, 'other_user_id' | 'group_id' | 'channel_id'>,
): SendTarget {
  const named = [body.other_user_id, body.group_id, body.channel_id].filter((v) => v !== undefined);
  if (named.length !== 1)
    throw errors.validation({ other_user_id: ErrorText.validationFailed }, ErrorText.chatTargetRequired);
  if (body.group_id !== undefined) return { kind: 'group', id: body.group_id };
  if (body.channel_id !== undefined) return { kind: 'channel', id: body.channel_id };
  return { kind: 'personal', otherUserId: body.other_user_id as number };
}

/** A group's or channel's chat as its member sees it. */
export interface RoomChat {
  conversation: ConversationRow;
  me: MembershipRow;
}

const isAdminRole = (role: MembershipRow['role']) => role === 'owner' || role === 'admin';

/** Receipts of a message newer than every watermark in a group or channel: not read, not received. */
const unseenBy = (me: MemberRow): MemberRow => ({ ...me, user_id: 0, last_read_id: 0, last_delivered_id: 0 });

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /**
     * A message stored and announced in any chat kind (sent, forwarded, a story reply, a call entry).
     * Who receives it is the chat's membership: `conversation.type` and its id say where to look.
     */
    'message.created': { conversation: ConversationRow; message: Omit<Message, 'temp_id'> };
  }
}

/** A text message's row as stored: what was sent, what the database gave it, and what it shows of its sender. */
function newTextRow(sent: NewText, stored: StoredText, sender: SenderCard): MessageRow {
  return {
    id: stored.id,
    conversation_id: sent.conversation_id,
    sender_id: sent.sender_id,
    content: sent.content,
    message_type: 'text',
    temp_id: sent.temp_id,
    is_forwarded: false,
    forwarded_from_id: null,
    created_at: stored.created_at,
    edited_at: null,
    deleted_at: null,
    sender_username: sender.username,
    sender_name: sender.name,
    sender_avatar_url: sender.avatar_url,
    forwarded_from_username: null,
    reply_to_id: sent.reply_to_id ?? null,
    views_count: 0,
    story_id: null,
  };
}

/** Sending, reading, editing, deleting and forwarding messages; receipts. */
export function messagesService(deps: {
  repo: MessengerRepository;
  queries: BatchQueries;
  facts: MessengerFacts;
  gateway: Gateway;
  limits: RateLimits;
  /** Raises `message.created` for every new message (notifications, push). */
  events?: Events;
  now?: () => Date;
  /** Removes stored files nothing references any more (see storage/references.ts). */
  releaseFiles?: (urls: string[]) => Promise<unknown>;
  /** Privacy (settings module): throws the 403 that says why `from` may not write to `to` (personal chats). */
  canMessage?: (from: number, to: number) => Promise<void>;
  /** Tells the chat-list cache what a write changed (see chat-list-cache.ts). */
  listChanged?: (change: ChatListChange) => void;
  /** A group's or channel's members or rights changed: caches of its members drop it on every node (push). */
  roomMembersChanged?: (conversationId: number) => Promise<unknown>;
  /** Who was found allowed to write to a group or channel (see room-writers.ts); without it every send looks up. */
  writers?: RoomWriters;
  /**
   * Past this wait of the oldest queued insert, of the oldest statement waiting for the database, or of the
   * oldest of a crowd of sends in progress, new sends are refused with 429 `server_busy` (default 500 ms).
   */
  sendQueueMaxWaitMs?: number;
  /** How long the oldest statement waiting for the database has waited, ms (`Db.waitingMs`). */
  databaseWaitingMs?: () => number;
  /**
   * Insert batches run at once: 2 on PostgreSQL, where one commit's flush overlaps the next batch; 1 on PGlite,
   * which runs one statement at a time anyway, so a second batch would only wait there while it could still
   * be growing (each statement costs PGlite more than each row in it).
   */
  insertsInFlight?: number;
}) {
  const { repo, facts, limits } = deps;
  const now = deps.now ?? (() => new Date());
  const tools: ConversationTools = conversationTools(repo, deps.gateway, deps.listChanged);
  const acks = deliveryAcks({ repo, queries: deps.queries, facts, tools });
  // Text sends that arrive together share one INSERT (and, on PostgreSQL, one commit).
  const SEND_QUEUE_MAX_WAIT_MS = deps.sendQueueMaxWaitMs ?? 500;
  // This many sends in progress at once make a queue (see `overloaded`).
  const BUSY_CROWD = 16;
  // Kept until a profile change drops them (every node hears it); the TTL only bounds a lost notice.
  const senders = senderCards((ids) => deps.queries.senderCards(ids), {
    capacity: 100_000,
    ttlMs: 10 * 60_000,
  });
  const texts = batcher(
    async (values: NewText[]): Promise<Array<MessageRow | null>> => {
      const [stored, cards] = await Promise.all([
        deps.queries.insertTexts(values),
        senders.of(values.map((v) => v.sender_id)),
      ]);
      return values.map((v, i) => {
        const row = stored[i];
        if (!row) return null;
        const sender = cards.get(v.sender_id);
        if (!sender) throw errors.notFound(ErrorText.userNotFound);
        return newTextRow(v, row, sender);
      });
    },
    { maxBatch: 200, maxInFlight: deps.insertsInFlight ?? 2 },
  );

  // Lookups of a pair not yet cached, shared by the sends waiting for it: one query, and the sends
  // reach the insert batch in the order they were made.
  const opening = new Map<string, Promise<ConversationRow>>();

  async function lookUpPair(userId: number, otherUserId: number): Promise<ConversationRow> {
    let conversation = await repo.findPair(userId, otherUserId);
    if (!conversation) {
      if (otherUserId !== userId) {
        await tools.requireUser(otherUserId);
        await limits.consume('message.new-chat', { user: userId });
      }
      conversation = await repo.getOrCreatePair(userId, otherUserId);
    }
    facts.rememberConversation(conversation);
    return conversation;
  }

  /** The pair's chat from the per-node cache, else the database (created on first use); 404 for unknown users. */
  function pairChat(userId: number, otherUserId: number): Promise<ConversationRow> {
    const cached = facts.pair(userId, otherUserId);
    if (cached) return Promise.resolve(cached);
    const key = `${Math.min(userId, otherUserId)}:${Math.max(userId, otherUserId)}`;
    let pending = opening.get(key);
    if (!pending) {
      pending = lookUpPair(userId, otherUserId).finally(() => opening.delete(key));
      opening.set(key, pending);
    }
    return pending;
  }

  /** Inserts a text message through the batch; a chat gone from under the cache is looked up again once. */
  async function insertText(
    userId: number,
    otherUserId: number,
    content: string,
    tempId: string,
    replyTo: number | null,
  ) {
    const conversation = await pairChat(userId, otherUserId);
    const values = {
      conversation_id: conversation.id,
      sender_id: userId,
      content,
      temp_id: tempId,
      reply_to_id: replyTo,
    };
    try {
      return { conversation, row: await texts.push(values) };
    } catch (err) {
      if ((err as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw err;
      facts.forgetPair(userId, otherUserId);
      const fresh = await pairChat(userId, otherUserId);
      return { conversation: fresh, row: await texts.push({ ...values, conversation_id: fresh.id }) };
    }
  }

  /** Every device of every member; the temp_id goes back to the sender's devices only. */
  /** `skipSocket`: the socket a send came from, answered by its ack, not told again. */
  function announce(
    loaded: Loaded,
    event: 'new-message' | 'message-edited',
    messages: Message[],
    skipSocket?: string,
  ) {
    for (const message of messages) {
      const { temp_id: _temp, ...bare } = message;
      if (event === 'new-message')
        deps.events?.emit('message.created', { conversation: loaded.conversation, message: bare });
      if (isRoomChat(loaded.conversation)) {
        if (event === 'new-message') tools.roomMessage(loaded.conversation, bare);
        else tools.fanOut(loaded, event, (chat) => ({ chat, message: bare }), { except: message.sender_id });
        tools.fanOut(loaded, event, (chat) => ({ chat, message }), { only: message.sender_id }, skipSocket);
      } else
        tools.fanOut(
          loaded,
          event,
          (chat, u) => ({ chat, message: u === message.sender_id ? message : bare }),
          undefined,
          skipSocket,
        );
    }
  }

  /** A group or channel and the caller's membership; 404 when there is none, 403 when not a member. */
  async function roomChat(userId: number, kind: 'group' | 'channel', id: number): Promise<RoomChat> {
    const found = await repo.roomChat(id, kind, userId);
    if (!found) throw errors.notFound(kind === 'group' ? ErrorText.groupNotFound : ErrorText.channelNotFound);
    if (!found.me)
      throw errors.forbidden(kind === 'group' ? ErrorText.notGroupMember : ErrorText.chatUnavailable);
    return { conversation: found.conversation, me: found.me };
  }

  /** Where a member may write: everywhere in a group; in a channel only with the post right. */
  async function writableRoom(userId: number, kind: 'group' | 'channel', id: number): Promise<RoomChat> {
    const chat = await roomChat(userId, kind, id);
    if (kind === 'channel' && !chat.me.can_post) throw errors.forbidden(ErrorText.channelPostForbidden);
    return chat;
  }

  /**
   * The group or channel a send goes to, with the sender as a member row. No lookup is needed once the
   * chat's row is known and the sender is known to be allowed to write: `inRoom` (the sender's socket is
   * in the group's room, which is being a member — the room is left on every node on removal — and in a
   * group every member may write), or `writers` found them allowed since the chat's last change (HTTP
   * sends, channels).
   */
  async function sendRoom(
    userId: number,
    kind: 'group' | 'channel',
    id: number,
    inRoom: boolean,
  ): Promise<{ conversation: ConversationRow; me: MemberRow }> {
    const known = facts.conversation(id);
    if (known?.type === kind && ((kind === 'group' && inRoom) || deps.writers?.may(id, userId))) {
      const me = { conversation_id: id, user_id: userId, pin_order: null, cleared_up_to: 0 };
      // The sender's own watermarks say nothing about a new message's receipts (those are the others').
      return { conversation: known, me: { ...me, last_read_id: 0, last_delivered_id: 0 } };
    }
    const lookUp = () => writableRoom(userId, kind, id);
    const room = deps.writers ? await deps.writers.check(id, userId, lookUp) : await lookUp();
    facts.rememberConversation(room.conversation);
    return room;
  }

  /** A reply answers a message of the same chat that still exists. */
  async function checkReply(conversationId: number, replyTo: number | undefined): Promise<number | null> {
    if (replyTo === undefined) return null;
    const [row] = await repo.messagesByIds([replyTo]);
    if (!row || row.deleted_at || row.conversation_id !== conversationId)
      throw errors.validation({ reply_to_id: ErrorText.replyNotFound }, ErrorText.replyNotFound);
    return row.id;
  }

  /** Members whose watermarks describe messages of this chat (groups: the furthest readers). */
  async function receiptsOf(loaded: Loaded): Promise<MemberRow[]> {
    return isRoomChat(loaded.conversation) ? repo.receiptMembers(loaded.conversation.id) : loaded.members;
  }

  async function existingByTemp(userId: number, id: number): Promise<Message> {
    const [row] = await repo.messagesByIds([id]);
    if (!row || row.deleted_at) throw errors.notFound(ErrorText.messageNotFound);
    const members = await repo.members([row.conversation_id]);
    const [message] = await tools.hydrate([row], members, userId);
    return message as Message;
  }

  /** Own uploads not yet sent and not failed, in the order given; 404 for anything else. */
  async function checkAttachments(userId: number, ids: number[]) {
    const files = await repo.uploadedFiles(ids);
    const usable = files.filter(
      (f) => f.uploader_id === userId && f.message_id === null && f.status !== 'failed',
    );
    if (usable.length !== ids.length)
      throw errors.validation({ attachment_ids: ErrorText.attachmentNotFound }, ErrorText.attachmentNotFound);
  }

  /** Resolves a §7.5 chat target to a conversation the user may write to, creating a personal one on demand. */
  async function targetChat(userId: number, target: ChatTarget): Promise<Loaded> {
    if ('is_favorites' in target) return tools.openChat(userId, userId);
    if ('chat_user_id' in target) {
      if (target.chat_user_id !== userId) await deps.canMessage?.(userId, target.chat_user_id);
      return tools.openChat(userId, target.chat_user_id);
    }
    const room =
      'group_id' in target
        ? await writableRoom(userId, 'group', target.group_id)
        : await writableRoom(userId, 'channel', target.channel_id);
    return { conversation: room.conversation, members: [room.me] };
  }

  async function deliver(loaded: Loaded, userId: number, upTo: number) {
    if (!(await repo.advanceDelivered(loaded.conversation.id, userId, upTo))) return;
    tools.fanOut(loaded, 'message-delivered', (chat) => ({ chat, up_to_message_id: upTo }), {
      except: userId,
    });
  }

  // Sends in progress, oldest first, with when each began (privacy and reply checks come before the batch):
  // shutdown waits for them, and backpressure reads how long the oldest has been at it.
  const sending = new Map<Promise<unknown>, number>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    sending.set(work, performance.now());
    work.then(
      () => sending.delete(work),
      () => sending.delete(work),
    );
    return work;
  };
  /**
   * Backpressure: a new send is refused at once with a 429 the clients retry after, instead of joining
   * seconds of queue, when any of these has waited past the bound: the oldest queued insert, the oldest
   * statement waiting for the database, or the oldest of a crowd of sends in progress (a new chat's lookups
   * are one statement after another, so a flood of them queues in no single place). One slow send alone
   * (a lock wait) is not a queue, hence the crowd.
   */
  function overloaded(): boolean {
    const oldest = sending.values().next().value;
    const crowded =
      sending.size >= BUSY_CROWD &&
      oldest !== undefined &&
      performance.now() - oldest > SEND_QUEUE_MAX_WAIT_MS;
    return crowded || Math.max(texts.waitingMs(), deps.databaseWaitingMs?.() ?? 0) > SEND_QUEUE_MAX_WAIT_MS;
  }

  const service = {
    tools,
    targetChat,
    roomChat,
    /** A group or channel with the caller's membership, if any; null when there is no such chat. */
    async roomChatOrNull(userId: number, kind: 'group' | 'channel', id: number) {
      return (await repo.roomChat(id, kind, userId)) ?? null;
    },

    /**
     * `extra.storyId`: a reply to that story (the stories module checks it exists and who may reply).
     * `extra.inRoom`: the socket it came from is in the group's room (see `sendRoom`).
     * `extra.socketId`: the socket whose page sent it (over the socket, or over HTTP from the same page), which
     * the ack or the HTTP answer tells: that socket is not sent the new message.
     */
    async send(
      userId: number,
      body: SendMessageBody,
      extra: { storyId?: number; inRoom?: boolean; socketId?: string } = {},
    ): Promise<Message> {
      const content = body.content.trim();
      const attachmentIds = [...new Set(body.attachment_ids ?? [])];
      if (content === '' && attachmentIds.length === 0) throw emptyMessage();
      await limits.consume('message.send', { user: userId });
      const target = sendTarget(body);
      if (target.kind === 'personal' && target.otherUserId !== userId)
        await deps.canMessage?.(userId, target.otherUserId);
      // With attachments, a resend must be recognised before the (already bound) uploads are checked.
      if (attachmentIds.length > 0) {
        const known = await repo.findByTempId(userId, body.temp_id);
        if (known !== null) return existingByTemp(userId, known);
        await checkAttachments(userId, attachmentIds);
      }
      const room =
        target.kind === 'personal'
          ? null
          : await sendRoom(userId, target.kind, target.id, extra.inRoom === true);
      let conversation: ConversationRow;
      let row: MessageRow | null;
      if (
        attachmentIds.length === 0 &&
        target.kind === 'personal' &&
        body.reply_to_id === undefined &&
        extra.storyId === undefined
      ) {
        // Plain text: no lookup when the pair is cached, and one INSERT per batch (senders from memory).
        ({ conversation, row } = await insertText(userId, target.otherUserId, content, body.temp_id, null));
      } else {
        conversation =
          room?.conversation ?? (await pairChat(userId, (target as { otherUserId: number }).otherUserId));
        const replyTo = await checkReply(conversation.id, body.reply_to_id);
        const values = {
          conversation_id: conversation.id,
          sender_id: userId,
          content,
          temp_id: body.temp_id,
          reply_to_id: replyTo,
        };
        if (attachmentIds.length === 0 && extra.storyId === undefined) {
          row = await texts.push(values);
        } else {
          const id = await repo.transaction(async (tx) => {
            const inserted = await tx.insertMessage({
              ...values,
              message_type: attachmentIds.length > 0 ? 'media' : 'text',
              ...(extra.storyId !== undefined ? { story_id: extra.storyId } : {}),
            });
            if (inserted === null) return null;
            if (
              attachmentIds.length > 0 &&
              (await tx.attachFiles(inserted, userId, attachmentIds)) !== attachmentIds.length
            )
              throw errors.validation(
                { attachment_ids: ErrorText.attachmentNotFound },
                ErrorText.attachmentNotFound,
              );
            return inserted;
          });
          row = id === null ? null : ((await repo.messagesByIds([id]))[0] ?? null);
        }
      }
      // (sender, temp_id) already stored — a resend or a concurrent twin: answer what is stored.
      if (row === null)
        return existingByTemp(userId, (await repo.findByTempId(userId, body.temp_id)) as number);

      facts.rememberMessage(row.id, row);
      // A message newer than every watermark: nobody has received or read it yet, so the members'
      // current watermarks are not needed to describe it — the pair's user ids (or, in a group, the
      // sender and "someone else" at zero) are enough.
      const members = room ? [room.me, unseenBy(room.me)] : pairMembers(conversation);
      const loaded = { conversation, members };
      const messages = await tools.hydrate([row], members, userId, conversation.type, { fresh: true });
      announce(loaded, 'new-message', messages, extra.socketId);
      return messages[0] as Message;
    },

    /**
     * An entry another capability writes into a personal chat as `userId` (a call's record): stored
     * once per (sender, temp_id), announced like any new message.
     */
    async postEntry(
      userId: number,
      otherUserId: number,
      entry: { content: string; message_type: 'call'; temp_id: string },
    ): Promise<Message> {
      let conversation = await pairChat(userId, otherUserId);
      const insert = (c: ConversationRow) =>
        repo.insertMessage({ conversation_id: c.id, sender_id: userId, ...entry });
      let id: number | null;
      try {
        id = await insert(conversation);
      } catch (err) {
        if ((err as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw err;
        facts.forgetPair(userId, otherUserId);
        conversation = await pairChat(userId, otherUserId);
        id = await insert(conversation);
      }
      if (id === null)
        return existingByTemp(userId, (await repo.findByTempId(userId, entry.temp_id)) as number);
      const [row] = await repo.messagesByIds([id]);
      if (!row) throw errors.notFound(ErrorText.messageNotFound);
      facts.rememberMessage(row.id, row);
      const members = pairMembers(conversation);
      const messages = await tools.hydrate([row], members, userId, conversation.type, { fresh: true });
      announce({ conversation, members }, 'new-message', messages);
      return messages[0] as Message;
    },

    /**
     * A page of a group's or channel's history from the newest end (`viewer` is the member, or for a
     * public channel's preview the caller with nothing cleared). Reading counts as receiving.
     */
    async roomPage(
      userId: number,
      conversation: ConversationRow,
      viewer: MemberRow,
      limit: number,
      offset: number,
      member: boolean,
    ): Promise<ConversationResponse> {
      const rows = await repo.page(viewer, limit + 1, offset);
      const has_more = rows.length > limit;
      const page = rows.slice(0, limit).reverse();
      const newest = Math.max(0, ...page.filter((r) => r.sender_id !== userId).map((r) => r.id));
      // Receipts in a group are "someone else got it": the other members are not told one by one.
      if (
        member &&
        newest > viewer.last_delivered_id &&
        (await repo.advanceDelivered(conversation.id, userId, newest))
      )
        tools.listChanged({ conversations: [conversation.id] });
      const receipts = await repo.receiptMembers(conversation.id);
      return { messages: await tools.hydrate(page, receipts, userId, conversation.type), has_more };
    },

    /**
     * A member opened the group or channel: everything up to now is read. Their own devices clear the
     * count; in a group, senders hear about it when this is the first member to read those messages.
     * Channel posts count a view once per subscriber (the watermark only moves forward).
     */
    async markRoomRead(userId: number, chat: RoomChat): Promise<MarkReadResponse> {
      const { conversation, me } = chat;
      const loaded = { conversation, members: [me] };
      const upTo = await repo.latestMessageId(conversation.id);
      if (upTo <= me.last_read_id) return { up_to_message_id: upTo, unread_count: 0 };
      const furthestOther = Math.max(
        0,
        ...(await repo.receiptMembers(conversation.id))
          .filter((m) => m.user_id !== userId)
          .map((m) => m.last_read_id),
      );
      if (!(await repo.advanceRead(conversation.id, userId, upTo)))
        return { up_to_message_id: upTo, unread_count: 0 };
      if (conversation.type === 'channel') await repo.countViews(conversation.id, me.last_read_id, upTo);
      const event = (chat: ChatRef) => ({
        chat,
        reader_id: userId,
        up_to_message_id: upTo,
      });
      tools.fanOut(loaded, 'messages-read', event, { only: userId });
      if (conversation.type === 'group' && upTo > furthestOther)
        tools.fanOut(loaded, 'messages-read', event, { except: userId });
      return { up_to_message_id: upTo, unread_count: 0 };
    },

    async conversation(
      userId: number,
      otherUserId: number,
      limit: number = Limits.messagesInitial,
      offset = 0,
    ): Promise<ConversationResponse> {
      const loaded = await tools.findChat(userId, otherUserId);
      const me = loaded?.members.find((m) => m.user_id === userId);
      if (!loaded || !me) return { messages: [], has_more: false };
      const rows = await repo.page(me, limit + 1, offset);
      const has_more = rows.length > limit;
      const page = rows.slice(0, limit).reverse();
      const newestFromPeer = Math.max(0, ...page.filter((r) => r.sender_id !== userId).map((r) => r.id));
      if (newestFromPeer > me.last_delivered_id) await deliver(loaded, userId, newestFromPeer);
      return { messages: await tools.hydrate(page, loaded.members, userId), has_more };
    },

    /** A message's files changed (processing finished or failed): every member gets the message again. */
    async filesChanged(messageId: number): Promise<void> {
      const [row] = await repo.messagesByIds([messageId]);
      if (!row || row.deleted_at) return;
      const conversation = await repo.findConversation(row.conversation_id);
      if (!conversation) return;
      const members = await repo.members([row.conversation_id]);
      const messages = await tools.hydrate([row], members, row.sender_id);
      announce({ conversation, members }, 'message-edited', messages);
    },

    async edit(userId: number, messageId: number, rawContent: string): Promise<Message> {
      const loaded = await tools.visibleMessage(userId, messageId);
      const { row, me } = loaded;
      await tools.assertReaches(userId, loaded);
      // A call's record is written by the calls module, a service line by the groups module: never edited.
      if (row.message_type === 'call') throw errors.forbidden(ErrorText.messageEditForbidden);
      if (row.message_type === 'service') throw errors.forbidden(ErrorText.serviceMessageForbidden);
      // Channel administrators with the right may edit others' posts.
      const mayEditOthers =
        loaded.conversation.type === 'channel' && 'role' in me && (me.role === 'owner' || me.can_edit_others);
      if (row.sender_id !== userId && !mayEditOthers) throw errors.forbidden(ErrorText.messageEditForbidden);
      if (now().getTime() - new Date(row.created_at).getTime() > Limits.messageEditWindowMs)
        throw new AppError(403, ErrorCode.editWindowExpired, ErrorText.messageEditExpired);
      const content = rawContent.trim();
      if (content === '' && row.message_type !== 'media') throw emptyMessage();
      await repo.updateContent(row.id, content, now());
      const messages = await tools.hydrate(
        await repo.messagesByIds([row.id]),
        await receiptsOf(loaded),
        userId,
        loaded.conversation.type,
      );
      announce(loaded, 'message-edited', messages);
      return messages[0] as Message;
    },

    async remove(userId: number, messageId: number, scope: DeleteScope): Promise<DeleteMessageResponse> {
      const loaded = await tools.visibleMessage(userId, messageId);
      const { me } = loaded;
      if (scope === 'everyone') {
        // Group admins delete anyone's; channel administrators with the right delete others' posts.
        const moderator =
          'role' in me &&
          ((loaded.conversation.type === 'group' && isAdminRole(me.role)) ||
            (loaded.conversation.type === 'channel' && (me.role === 'owner' || me.can_delete_others)));
        if (loaded.row.sender_id !== userId && !moderator)
          throw errors.forbidden(ErrorText.messageDeleteForbidden);
        const urls = await repo.markDeleted(messageId, now());
        // The file goes once no other message, post or avatar names it.
        if (urls.length > 0 && deps.releaseFiles) await deps.releaseFiles(urls);
      } else {
        await repo.hide(userId, messageId);
      }
      tools.fanOut(
        loaded,
        'message-deleted',
        (chat) => ({ chat, message_id: messageId, for: scope }),
        scope === 'everyone' ? undefined : { only: userId },
      );
      return { id: messageId, for: scope };
    },

    async forward(userId: number, messageIds: number[], targets: ChatTarget[]): Promise<Message[]> {
      const ids = [...new Set(messageIds)].sort((a, b) => a - b);
      const sources: MessageRow[] = [];
      for (const id of ids) sources.push((await tools.visibleMessage(userId, id)).row);
      if (sources.some((row) => row.message_type === 'service'))
        throw new AppError(400, ErrorCode.validationFailed, ErrorText.serviceMessageForbidden);
      // A copy names the file as it is now: one still processing (or failed) would stay broken forever.
      if ((await repo.filesOf(ids)).some((f) => (f.status ?? 'ready') !== 'ready'))
        throw errors.conflict(ErrorCode.attachmentProcessing, ErrorText.attachmentProcessing);
      const chats: Loaded[] = [];
      for (const target of targets) {
        const chat = await targetChat(userId, target);
        if (!chats.some((c) => c.conversation.id === chat.conversation.id)) chats.push(chat);
      }
      // Each message a forward creates counts like a send: one request cannot write thousands.
      await limits.consume('message.send', { user: userId }, sources.length * chats.length);
      const created = await repo.transaction(async (tx) => {
        const out: { chat: Loaded; ids: number[] }[] = [];
        for (const chat of chats) {
          const newIds: number[] = [];
          for (const source of sources) {
            const id = await tx.insertMessage({
              conversation_id: chat.conversation.id,
              sender_id: userId,
              content: source.content,
              message_type: source.message_type,
              temp_id: null,
              is_forwarded: true,
              forwarded_from_id: source.forwarded_from_id ?? source.sender_id,
            });
            await tx.copyFiles(source.id, id as number, userId);
            newIds.push(id as number);
          }
          out.push({ chat, ids: newIds });
        }
        return out;
      });
      const result: Message[] = [];
      for (const { chat, ids: newIds } of created) {
        const members = isRoomChat(chat.conversation)
          ? [...chat.members, unseenBy(chat.members[0] as MemberRow)]
          : chat.members;
        const messages = await tools.hydrate(
          await repo.messagesByIds(newIds),
          members,
          userId,
          chat.conversation.type,
        );
        announce(chat, 'new-message', messages);
        result.push(...messages);
      }
      return result;
    },

    async markRead(userId: number, otherUserId: number): Promise<MarkReadResponse> {
      const loaded = await tools.findChat(userId, otherUserId);
      if (!loaded) return { up_to_message_id: 0, unread_count: 0 };
      const upTo = await repo.latestMessageId(loaded.conversation.id);
      if (upTo > 0 && (await repo.advanceRead(loaded.conversation.id, userId, upTo))) {
        tools.fanOut(loaded, 'messages-read', (chat) => ({
          chat,
          reader_id: userId,
          up_to_message_id: upTo,
        }));
      }
      return { up_to_message_id: upTo, unread_count: 0 };
    },

    /**
     * Why `userId` may not write to `otherUserId` now (privacy, blocks), as a field of the chat's answer;
     * nothing when they may (and for favorites).
     */
    async writeRestriction(
      userId: number,
      otherUserId: number,
    ): Promise<{ write_restriction?: { code: string; error: string } }> {
      if (otherUserId === userId || !deps.canMessage) return {};
      try {
        await deps.canMessage(userId, otherUserId);
        return {};
      } catch (err) {
        if (err instanceof AppError && err.status === 403)
          return { write_restriction: { code: err.code, error: err.message } };
        throw err;
      }
    },

    /**
     * A line the server writes into a group (someone joined, left, was removed): stored as `service`,
     * announced to the room like a message, but no notification or push is raised for it.
     */
    async postRoomLine(conversation: ConversationRow, senderId: number, content: string): Promise<void> {
      const id = await repo.insertMessage({
        conversation_id: conversation.id,
        sender_id: senderId,
        content,
        message_type: 'service',
        temp_id: null,
      });
      const [row] = await repo.messagesByIds([id as number]);
      if (!row) return;
      facts.rememberMessage(row.id, row);
      const me: MemberRow = {
        conversation_id: conversation.id,
        user_id: senderId,
        pin_order: null,
        last_read_id: 0,
        last_delivered_id: 0,
        cleared_up_to: 0,
      };
      const [message] = await tools.hydrate([row], [me, unseenBy(me)], senderId, conversation.type, {
        fresh: true,
      });
      if (message) {
        tools.roomMessage(conversation, message);
        tools.fanOut({ conversation, members: [me] }, 'new-message', (chat) => ({ chat, message }), {
          only: senderId,
        });
      }
    },

    /**
     * Whether `userId` may show `otherUserId` that they are typing: the pair already has a chat (nothing is
     * created) and a message from one to the other would be allowed now (blocks, "who may message me").
     */
    async mayType(userId: number, otherUserId: number): Promise<boolean> {
      let conversation = facts.pair(userId, otherUserId);
      if (!conversation) {
        conversation = await repo.findPair(userId, otherUserId);
        if (conversation) facts.rememberConversation(conversation);
      }
      if (!conversation) return false;
      try {
        await deps.canMessage?.(userId, otherUserId);
        return true;
      } catch (err) {
        if (err instanceof AppError) return false;
        throw err;
      }
    },

    /** A device of `userId` received these messages; 403 if any is from a chat they are not in. */
    delivered: acks.delivered,
    settledAck: acks.settledAck,
    listDelivered: acks.listDelivered,
    /**
     * A group or channel changed (after the write committed, before anyone is told): its title, avatar,
     * rights or members; `joined` / `left`: users whose set of chats changed.
     */
    roomChanged(
      conversationId: number,
      members: { joined?: readonly number[]; left?: readonly number[] } = {},
    ) {
      // A member who left takes their receipts with them: what this node knew of them may be wrong.
      if (members.left?.length) acks.forgetRoom(conversationId);
      deps.writers?.changed(conversationId).catch(() => undefined);
      deps.roomMembersChanged?.(conversationId).catch(() => undefined);
      tools.listChanged({
        conversations: [conversationId],
        users: [...(members.joined ?? []), ...(members.left ?? [])],
      });
    },

    /** These users' profiles changed (on any node): their next messages read their names and avatars anew. */
    profilesChanged(userIds: number[]) {
      senders.forget(userIds);
    },

    /** Resolves once no send or ack is still writing (shutdown waits for it before the database closes). */
    async drained(): Promise<void> {
      while (sending.size > 0) await Promise.allSettled([...sending.keys()]);
      await Promise.all([texts.drained(), acks.drained()]);
    },
  };
  const send = service.send;
  service.send = (...args: Parameters<typeof send>) => {
    // Refused before anything is counted or written.
    if (overloaded()) return Promise.reject(errors.busy(1000));
    return track(send(...args));
  };
  return service;
}

export type MessagesService = ReturnType<typeof messagesService>;
