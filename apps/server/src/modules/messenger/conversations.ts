import { ErrorText, type Message, type MessageStoryRef, type ServerToClientEvents } from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import { pairUserIds } from './facts-cache.ts';
import { chatRef, toMessage } from './mappers.ts';
import type { ConversationRow, MemberRow, MessageRow, MessengerRepository } from './repository.ts';

export interface Loaded {
  conversation: ConversationRow;
  members: MemberRow[];
}

/**
 * Members of a personal chat or favorites as known from the pair, watermarks at zero: enough to
 * address and describe a message newer than every watermark (nobody has received or read it yet).
 */
export function pairMembers(conversation: ConversationRow): MemberRow[] {
  return pairUserIds(conversation).map((user_id) => ({
    conversation_id: conversation.id,
    user_id,
    pin_order: null,
    last_read_id: 0,
    last_delivered_id: 0,
    cleared_up_to: 0,
  }));
}

/**
 * Shared steps of the messenger services: resolving a chat the way the API names it, checking
 * membership, turning rows into messages and fanning events out to every member's devices.
 */
/** Story id → its preview in a reply; supplied by the stories module (absent ids are expired). */
export type StoryPreviews = (ids: number[]) => Promise<Map<number, MessageStoryRef>>;

export function conversationTools(repo: MessengerRepository, gateway: Gateway) {
  let storyPreviews: StoryPreviews | null = null;

  async function requireUser(id: number) {
    const user = await repo.findUser(id);
    if (!user) throw errors.notFound(ErrorText.userNotFound);
    return user;
  }

  return {
    requireUser,

    setStoryPreviews(resolve: StoryPreviews) {
      storyPreviews = resolve;
    },

    /** The chat of `userId` with `otherUserId` (favorites when equal), if it exists; 404 for unknown users. */
    async findChat(userId: number, otherUserId: number): Promise<Loaded | null> {
      if (otherUserId !== userId) await requireUser(otherUserId);
      const conversation = await repo.findPair(userId, otherUserId);
      if (!conversation) return null;
      return { conversation, members: await repo.members([conversation.id]) };
    },

    async openChat(userId: number, otherUserId: number): Promise<Loaded> {
      if (otherUserId !== userId) await requireUser(otherUserId);
      const conversation = await repo.getOrCreatePair(userId, otherUserId);
      return { conversation, members: await repo.members([conversation.id]) };
    },

    /** A message the user may see: 404 when missing or gone for them, 403 when not their chat. */
    async visibleMessage(userId: number, messageId: number): Promise<Loaded & { row: MessageRow }> {
      const [row] = await repo.messagesByIds([messageId]);
      if (!row || row.deleted_at) throw errors.notFound(ErrorText.messageNotFound);
      const conversation = await repo.findConversation(row.conversation_id);
      const members = await repo.members([row.conversation_id]);
      const me = members.find((m) => m.user_id === userId);
      if (!conversation || !me) throw errors.forbidden(ErrorText.chatUnavailable);
      if (row.id <= me.cleared_up_to || (await repo.isHidden(userId, row.id)))
        throw errors.notFound(ErrorText.messageNotFound);
      return { row, conversation, members };
    },

    async hydrate(rows: MessageRow[], members: MemberRow[], viewerId: number): Promise<Message[]> {
      const media = rows.filter((r) => r.message_type === 'media').map((r) => r.id);
      const files = media.length > 0 ? await repo.filesOf(media) : [];
      const storyIds = [...new Set(rows.flatMap((r) => (r.story_id ? [r.story_id] : [])))];
      const stories =
        storyIds.length > 0 && storyPreviews
          ? await storyPreviews(storyIds)
          : new Map<number, MessageStoryRef>();
      return rows.map((r) => {
        const message = toMessage(
          r,
          files,
          members.filter((m) => m.conversation_id === r.conversation_id),
          { withTempId: r.sender_id === viewerId },
        );
        if (r.story_id)
          message.story = stories.get(r.story_id) ?? {
            id: r.story_id,
            media_type: 'photo',
            media_url: null,
            thumbnail_url: null,
            expired: true,
          };
        return message;
      });
    },

    /** Sends an event to every device of every member, each seeing the chat from their side. */
    fanOut<E extends keyof ServerToClientEvents>(
      loaded: Loaded,
      event: E,
      build: (chat: ReturnType<typeof chatRef>, userId: number) => Parameters<ServerToClientEvents[E]>[0],
      only?: (userId: number) => boolean,
    ) {
      for (const member of loaded.members) {
        if (only && !only(member.user_id)) continue;
        const payload = build(chatRef(loaded.conversation, loaded.members, member.user_id), member.user_id);
        (gateway.emitToUser as (u: number, e: E, p: unknown) => void)(member.user_id, event, payload);
      }
    },
  };
}

export type ConversationTools = ReturnType<typeof conversationTools>;
