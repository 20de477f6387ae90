import {
  type AroundResponse,
  ErrorCode,
  ErrorText,
  Limits,
  type MessageFileType,
  type MessagePinResponse,
  type PinnedMessage,
  type SharedMediaQuery,
  type SharedMediaResponse,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import { isRoomChat, type Loaded } from './conversations.ts';
import type { HistoryRepository, PinnedRow } from './history-repository.ts';
import { chatRef, toMessageFile } from './mappers.ts';
import type { MemberRow, MessengerRepository } from './repository.ts';
import type { MessagesService } from './service.ts';

const MEDIA_KINDS: readonly MessageFileType[] = ['photo', 'image', 'gif', 'video'];
const FILE_KINDS: readonly MessageFileType[] = ['document', 'voice'];

export function toPinnedMessage(row: PinnedRow): PinnedMessage {
  return {
    id: row.id,
    sender_id: row.sender_id,
    sender_name: row.sender_name,
    content: row.content.slice(0, Limits.messagePreviewChars),
    message_type: row.message_type,
    ...(row.file_type ? { file_type: row.file_type } : {}),
  };
}

/**
 * Reading a chat's history around a message (a search hit, a pin), its shared photos and files
 * («Медиа из чата»), and its pinned message.
 */
export function historyService(deps: {
  repo: MessengerRepository;
  history: HistoryRepository;
  messages: MessagesService;
}) {
  const { repo, history, messages } = deps;
  const { tools } = messages;

  /** The member row whose watermarks describe messages of this chat (groups: the furthest readers). */
  const receipts = (loaded: Loaded): Promise<MemberRow[]> =>
    isRoomChat(loaded.conversation)
      ? repo.receiptMembers(loaded.conversation.id)
      : Promise.resolve(loaded.members);

  /** Who may pin in a chat: either side of a personal chat; a group's or channel's owner or admin. */
  function assertMayPin(loaded: Awaited<ReturnType<typeof tools.visibleMessage>>) {
    if (!isRoomChat(loaded.conversation)) return;
    const role = 'role' in loaded.me ? loaded.me.role : null;
    if (role !== 'owner' && role !== 'admin') throw errors.forbidden(ErrorText.pinForbidden);
  }

  async function pinnedOf(conversationId: number): Promise<PinnedMessage | null> {
    const row = await history.pinned(conversationId);
    return row ? toPinnedMessage(row) : null;
  }

  return {
    async around(userId: number, messageId: number, limit: number): Promise<AroundResponse> {
      const loaded = await tools.visibleMessage(userId, messageId);
      const older = Math.floor((limit - 1) / 2);
      const newer = limit - older;
      const { before, after } = await history.around(loaded.me, messageId, older, newer);
      const rows = [...before.slice(0, older).reverse(), ...after.slice(0, newer)];
      return {
        chat: chatRef(loaded.conversation, loaded.members, userId),
        messages: await tools.hydrate(rows, await receipts(loaded), userId, loaded.conversation.type),
        has_older: before.length > older,
        has_newer: after.length > newer,
      };
    },

    async sharedMedia(userId: number, query: SharedMediaQuery): Promise<SharedMediaResponse> {
      const named = [query.other_user_id, query.group_id, query.channel_id].filter((v) => v !== undefined);
      if (named.length !== 1)
        throw errors.validation({ other_user_id: ErrorText.validationFailed }, ErrorText.chatTargetRequired);
      let me: MemberRow | undefined;
      if (query.other_user_id !== undefined) {
        const loaded = await tools.findChat(userId, query.other_user_id);
        me = loaded?.members.find((m) => m.user_id === userId);
        if (!me) return { items: [], has_more: false };
      } else {
        me = (
          query.group_id !== undefined
            ? await messages.roomChat(userId, 'group', query.group_id)
            : await messages.roomChat(userId, 'channel', query.channel_id as number)
        ).me;
      }
      const limit = query.limit ?? 60;
      const rows = await history.sharedFiles(
        me,
        query.kind === 'media' ? MEDIA_KINDS : FILE_KINDS,
        limit + 1,
        query.offset ?? 0,
      );
      return {
        items: rows.slice(0, limit).map((row) => ({
          message_id: row.message_id as number,
          sender_id: row.message_sender_id,
          created_at: new Date(row.message_created_at).toISOString(),
          file: toMessageFile(row),
        })),
        has_more: rows.length > limit,
      };
    },

    /** Pins (or unpins) a message for everyone in its chat; every member hears `message-pinned`. */
    async setPin(userId: number, messageId: number, pinned: boolean): Promise<MessagePinResponse> {
      const loaded = await tools.visibleMessage(userId, messageId);
      assertMayPin(loaded);
      if (pinned) await tools.assertReaches(userId, loaded);
      if (pinned && (loaded.row.message_type === 'service' || loaded.row.message_type === 'call'))
        throw new AppError(400, ErrorCode.validationFailed, ErrorText.serviceMessageForbidden);
      const conversationId = loaded.conversation.id;
      const current = await history.pinned(conversationId);
      const chat = chatRef(loaded.conversation, loaded.members, userId);
      if (!pinned && current?.id !== messageId)
        return { chat, pinned_message: current ? toPinnedMessage(current) : null };
      await history.setPinned(conversationId, pinned ? messageId : null);
      const pinnedMessage = pinned ? await pinnedOf(conversationId) : null;
      // Every member's chat list row carries the pin: the fan-out drops their cached pages too.
      const audience = isRoomChat(loaded.conversation)
        ? loaded
        : { conversation: loaded.conversation, members: await repo.members([conversationId]) };
      tools.fanOut(audience, 'message-pinned', (ref) => ({ chat: ref, pinned_message: pinnedMessage }));
      return { chat, pinned_message: pinnedMessage };
    },
  };
}

export type HistoryService = ReturnType<typeof historyService>;
