import {
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
import { AppError, errors } from '../../lib/errors.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { BatchQueries, NewText } from './batch-queries.ts';
import { batcher } from './batcher.ts';
import { type ConversationTools, conversationTools, type Loaded, pairMembers } from './conversations.ts';
import { deliveryAcks } from './delivery.ts';
import type { MessengerFacts } from './facts-cache.ts';
import type { ConversationRow, MessageRow, MessengerRepository } from './repository.ts';

const FOREIGN_KEY_VIOLATION = '23503';

const emptyMessage = () => errors.validation({ content: ErrorText.messageEmpty }, ErrorText.messageEmpty);

/** Sending, reading, editing, deleting and forwarding messages; receipts. */
export function messagesService(deps: {
  repo: MessengerRepository;
  queries: BatchQueries;
  facts: MessengerFacts;
  gateway: Gateway;
  now?: () => Date;
}) {
  const { repo, facts } = deps;
  const now = deps.now ?? (() => new Date());
  const tools: ConversationTools = conversationTools(repo, deps.gateway);
  const acks = deliveryAcks({ repo, queries: deps.queries, facts, tools });
  // Text sends that arrive together share one INSERT (and, on PostgreSQL, one commit).
  const texts = batcher((values: NewText[]) => deps.queries.insertTexts(values), {
    maxBatch: 200,
    maxInFlight: 2,
  });

  // Lookups of a pair not yet cached, shared by the sends waiting for it: one query, and the sends
  // reach the insert batch in the order they were made.
  const opening = new Map<string, Promise<ConversationRow>>();

  async function lookUpPair(userId: number, otherUserId: number): Promise<ConversationRow> {
    let conversation = await repo.findPair(userId, otherUserId);
    if (!conversation) {
      if (otherUserId !== userId) await tools.requireUser(otherUserId);
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
  async function insertText(userId: number, otherUserId: number, content: string, tempId: string) {
    const conversation = await pairChat(userId, otherUserId);
    const values = { conversation_id: conversation.id, sender_id: userId, content, temp_id: tempId };
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
  function announce(loaded: Loaded, event: 'new-message' | 'message-edited', messages: Message[]) {
    for (const message of messages) {
      const { temp_id: _temp, ...bare } = message;
      tools.fanOut(loaded, event, (chat, u) => ({ chat, message: u === message.sender_id ? message : bare }));
    }
  }

  async function existingByTemp(userId: number, id: number): Promise<Message> {
    const [row] = await repo.messagesByIds([id]);
    if (!row || row.deleted_at) throw errors.notFound(ErrorText.messageNotFound);
    const members = await repo.members([row.conversation_id]);
    const [message] = await tools.hydrate([row], members, userId);
    return message as Message;
  }

  /** Own uploads not yet sent, in the order given; 404 for anything else. */
  async function checkAttachments(userId: number, ids: number[]) {
    const files = await repo.uploadedFiles(ids);
    const usable = files.filter((f) => f.uploader_id === userId && f.message_id === null);
    if (usable.length !== ids.length)
      throw errors.validation({ attachment_ids: ErrorText.attachmentNotFound }, ErrorText.attachmentNotFound);
  }

  /** Resolves a §7.5 chat target to a conversation the user is in, creating a personal one on demand. */
  async function targetChat(userId: number, target: ChatTarget): Promise<Loaded> {
    if ('is_favorites' in target) return tools.openChat(userId, userId);
    if ('chat_user_id' in target) return tools.openChat(userId, target.chat_user_id);
    throw errors.notFound(ErrorText.chatNotFound);
  }

  async function deliver(loaded: Loaded, userId: number, upTo: number) {
    if (!(await repo.advanceDelivered(loaded.conversation.id, userId, upTo))) return;
    tools.fanOut(
      loaded,
      'message-delivered',
      (chat) => ({ chat, up_to_message_id: upTo }),
      (u) => u !== userId,
    );
  }

  return {
    tools,
    targetChat,

    /** `extra.storyId`: a reply to that story (the stories module checks it exists and who may reply). */
    async send(userId: number, body: SendMessageBody, extra: { storyId?: number } = {}): Promise<Message> {
      const content = body.content.trim();
      const attachmentIds = [...new Set(body.attachment_ids ?? [])];
      if (content === '' && attachmentIds.length === 0) throw emptyMessage();
      // With attachments, a resend must be recognised before the (already bound) uploads are checked.
      if (attachmentIds.length > 0) {
        const known = await repo.findByTempId(userId, body.temp_id);
        if (known !== null) return existingByTemp(userId, known);
        await checkAttachments(userId, attachmentIds);
      }
      let conversation: ConversationRow;
      let row: MessageRow | null;
      if (attachmentIds.length === 0 && extra.storyId === undefined) {
        // Plain text: no lookup when the pair is cached, and one INSERT (with the sender) per batch.
        ({ conversation, row } = await insertText(userId, body.other_user_id, content, body.temp_id));
      } else {
        conversation = await pairChat(userId, body.other_user_id);
        const values = {
          conversation_id: conversation.id,
          sender_id: userId,
          content,
          temp_id: body.temp_id,
        };
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
      // (sender, temp_id) already stored — a resend or a concurrent twin: answer what is stored.
      if (row === null)
        return existingByTemp(userId, (await repo.findByTempId(userId, body.temp_id)) as number);

      facts.rememberMessage(row.id, row);
      // A message newer than every watermark: nobody has received or read it yet, so the members'
      // current watermarks are not needed to describe it — the pair's user ids are enough.
      const members = pairMembers(conversation);
      const loaded = { conversation, members };
      const messages = await tools.hydrate([row], members, userId);
      announce(loaded, 'new-message', messages);
      return messages[0] as Message;
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

    async edit(userId: number, messageId: number, rawContent: string): Promise<Message> {
      const loaded = await tools.visibleMessage(userId, messageId);
      const { row } = loaded;
      if (row.sender_id !== userId) throw errors.forbidden(ErrorText.messageEditForbidden);
      if (now().getTime() - new Date(row.created_at).getTime() > Limits.messageEditWindowMs)
        throw new AppError(403, ErrorCode.editWindowExpired, ErrorText.messageEditExpired);
      const content = rawContent.trim();
      if (content === '' && row.message_type !== 'media') throw emptyMessage();
      await repo.updateContent(row.id, content, now());
      const messages = await tools.hydrate(await repo.messagesByIds([row.id]), loaded.members, userId);
      announce(loaded, 'message-edited', messages);
      return messages[0] as Message;
    },

    async remove(userId: number, messageId: number, scope: DeleteScope): Promise<DeleteMessageResponse> {
      const loaded = await tools.visibleMessage(userId, messageId);
      if (scope === 'everyone') {
        if (loaded.row.sender_id !== userId) throw errors.forbidden(ErrorText.messageDeleteForbidden);
        await repo.markDeleted(messageId, now());
      } else {
        await repo.hide(userId, messageId);
      }
      tools.fanOut(
        loaded,
        'message-deleted',
        (chat) => ({ chat, message_id: messageId, for: scope }),
        (u) => scope === 'everyone' || u === userId,
      );
      return { id: messageId, for: scope };
    },

    async forward(userId: number, messageIds: number[], targets: ChatTarget[]): Promise<Message[]> {
      const ids = [...new Set(messageIds)].sort((a, b) => a - b);
      const sources: MessageRow[] = [];
      for (const id of ids) sources.push((await tools.visibleMessage(userId, id)).row);
      const chats: Loaded[] = [];
      for (const target of targets) {
        const chat = await targetChat(userId, target);
        if (!chats.some((c) => c.conversation.id === chat.conversation.id)) chats.push(chat);
      }
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
        const messages = await tools.hydrate(await repo.messagesByIds(newIds), chat.members, userId);
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

    /** A device of `userId` received these messages; 403 if any is from a chat they are not in. */
    delivered: acks.delivered,

    /** Resolves once no send or ack is still writing (shutdown waits for it before the database closes). */
    async drained(): Promise<void> {
      await Promise.all([texts.drained(), acks.drained()]);
    },
  };
}

export type MessagesService = ReturnType<typeof messagesService>;
