import {
  ErrorText,
  type Message,
  type MessageReaction,
  type MessageStoryRef,
  rooms,
  type ServerToClientEvents,
} from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { ChatListChange } from './chat-list-cache.ts';
import { pairUserIds } from './facts-cache.ts';
import { chatRef, toMessage } from './mappers.ts';
import type {
  ConversationRow,
  MemberRow,
  MembershipRow,
  MessageRow,
  MessengerRepository,
} from './repository.ts';

export interface Loaded {
  conversation: ConversationRow;
  members: MemberRow[];
}

/** Who of a chat's members hears an event: all of them (undefined), one, or all but one. */
export type Audience = { only: number } | { except: number } | undefined;

/** How many members a group or channel message asks to confirm receipt (two settle it; one spare). */
export const ACK_ASKED = 3;

/** Up to `count` distinct users, other than `except`, with a socket in `room` on this node. */
function localMembers(gateway: Gateway, room: string, except: number, count: number): number[] {
  const found = new Set<number>();
  for (const id of gateway.io.sockets.adapter.rooms.get(room) ?? []) {
    const userId = gateway.io.sockets.sockets.get(id)?.data.userId;
    if (userId !== undefined && userId !== except) found.add(userId);
    if (found.size === count) break;
  }
  return [...found];
}

const inAudience = (audience: Audience, userId: number) =>
  !audience || ('only' in audience ? audience.only === userId : audience.except !== userId);

/** Groups and channels: members change, events go through the chat's room (joined on every node). */
export const isRoomChat = (c: Pick<ConversationRow, 'type'>) => c.type === 'group' || c.type === 'channel';

export function chatRoom(c: Pick<ConversationRow, 'id' | 'type'>): string {
  return c.type === 'channel' ? rooms.channel(c.id) : rooms.group(c.id);
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
/** Throws the 403 of a block between two people, either way (the settings module's reach policy). */
export type WallCheck = (actor: number, other: number) => Promise<void>;
/** Message id → its reactions (reactions.ts); set by the module. */
export type ReactionLookup = (ids: number[]) => Promise<Map<number, MessageReaction[]>>;

export function conversationTools(
  repo: MessengerRepository,
  gateway: Gateway,
  /** Tells the chat-list cache (chat-list-cache.ts) what a write changed; every node hears it. */
  listChanged: (change: ChatListChange) => void = () => undefined,
) {
  let storyPreviews: StoryPreviews | null = null;
  let reactionLookup: ReactionLookup | null = null;
  let assertNoWall: WallCheck = async () => undefined;

  async function requireUser(id: number) {
    const user = await repo.findUser(id);
    if (!user) throw errors.notFound(ErrorText.userNotFound);
    return user;
  }

  return {
    requireUser,
    listChanged,

    setStoryPreviews(resolve: StoryPreviews) {
      storyPreviews = resolve;
    },

    setReactionLookup(resolve: ReactionLookup) {
      reactionLookup = resolve;
    },

    setWalls(check: WallCheck) {
      assertNoWall = check;
    },

    /**
     * Refuses (403) a change to a message that would reach someone walled off from `userId` by a block:
     * anything in a personal chat with them (an edit, a pin, a reaction), or a reaction to their message in
     * a group or channel both stay in.
     */
    async assertReaches(userId: number, loaded: Loaded & { row: MessageRow }) {
      const { conversation, row } = loaded;
      const other =
        conversation.type === 'personal'
          ? pairUserIds(conversation).find((id) => id !== userId)
          : row.sender_id !== userId
            ? row.sender_id
            : undefined;
      if (other !== undefined) await assertNoWall(userId, other);
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

    /**
     * A message the user may see: 404 when missing or gone for them, 403 when not their chat. In a group
     * or channel `members` holds the caller only (with their role and rights in `me`).
     */
    async visibleMessage(
      userId: number,
      messageId: number,
    ): Promise<Loaded & { row: MessageRow; me: MembershipRow | MemberRow }> {
      const [row] = await repo.messagesByIds([messageId]);
      if (!row || row.deleted_at) throw errors.notFound(ErrorText.messageNotFound);
      const conversation = await repo.findConversation(row.conversation_id);
      if (!conversation) throw errors.forbidden(ErrorText.chatUnavailable);
      let me: MembershipRow | MemberRow | undefined;
      let members: MemberRow[];
      if (isRoomChat(conversation)) {
        me = (await repo.roomChat(conversation.id, conversation.type as 'group' | 'channel', userId))?.me;
        members = me ? [me] : [];
      } else {
        members = await repo.members([row.conversation_id]);
        me = members.find((m) => m.user_id === userId);
      }
      if (!me) throw errors.forbidden(ErrorText.chatUnavailable);
      if (row.id <= me.cleared_up_to || (await repo.isHidden(userId, row.id)))
        throw errors.notFound(ErrorText.messageNotFound);
      return { row, conversation, members, me };
    },

    /**
     * `channel`: posts carry their view count. `fresh`: rows just stored, which nobody has reacted to
     * yet — no reactions lookup on the send path (it also kept announcements in the order sent).
     */
    async hydrate(
      rows: MessageRow[],
      members: MemberRow[],
      viewerId: number,
      kind?: ConversationRow['type'],
      { fresh = false }: { fresh?: boolean } = {},
    ): Promise<Message[]> {
      const media = rows.filter((r) => r.message_type === 'media').map((r) => r.id);
      const replyIds = [...new Set(rows.flatMap((r) => (r.reply_to_id ? [r.reply_to_id] : [])))];
      const storyIds = [...new Set(rows.flatMap((r) => (r.story_id ? [r.story_id] : [])))];
      const live = rows.filter((r) => !r.deleted_at).map((r) => r.id);
      const [files, replies, stories, reactions] = await Promise.all([
        media.length > 0 ? repo.filesOf(media) : Promise.resolve([]),
        replyIds.length > 0 ? repo.replyPreviews(replyIds) : Promise.resolve([]),
        storyIds.length > 0 && storyPreviews
          ? storyPreviews(storyIds)
          : Promise.resolve(new Map<number, MessageStoryRef>()),
        live.length > 0 && reactionLookup && !fresh
          ? reactionLookup(live)
          : Promise.resolve(new Map<number, MessageReaction[]>()),
      ]);
      return rows.map((r) => {
        const message = toMessage(
          r,
          files,
          members.filter((m) => m.conversation_id === r.conversation_id),
          { withTempId: r.sender_id === viewerId, withViews: kind === 'channel' },
          replies,
        );
        if (r.story_id)
          message.story = stories.get(r.story_id) ?? {
            id: r.story_id,
            media_type: 'photo',
            media_url: null,
            thumbnail_url: null,
            expired: true,
          };
        const reacted = reactions.get(r.id);
        if (reacted) message.reactions = reacted;
        return message;
      });
    },

    /**
     * A new group or channel message to every member's devices but the sender's. "Delivered" needs one
     * receiver other than the sender, so only the devices of a few members (`ACK_ASKED`, in the room on
     * this node) are asked to confirm receipt; without this each message to N members came back as N
     * acks (10,000 per channel post: reading them cost the server about half as much as writing the
     * post). When this node has fewer such members, everyone is asked, as before.
     */
    roomMessage(conversation: ConversationRow, message: Omit<Message, 'temp_id'>) {
      listChanged({ conversations: [conversation.id], users: [] });
      const room = chatRoom(conversation);
      const event = { chat: chatRef(conversation, [], 0), message };
      const sender = rooms.user(message.sender_id);
      const asked = localMembers(gateway, room, message.sender_id, ACK_ASKED).map(rooms.user);
      if (asked.length < ACK_ASKED) {
        gateway.io
          .to(room)
          .except(sender)
          .emit('new-message', { ...event, ack: true });
        return;
      }
      gateway.io.to(asked).emit('new-message', { ...event, ack: true });
      gateway.io
        .to(room)
        .except([sender, ...asked])
        .emit('new-message', event);
    },

    /**
     * Sends an event to every device of every member (or of the `audience`), each seeing the chat from
     * their side. Groups and channels: one emit to the chat's room, which reaches each member's sockets
     * once on every node (the payload does not depend on the member there). `skipSocket`: the socket a send
     * came from hears nothing of it here (its ack carries the message); the user's other devices do.
     */
    fanOut<E extends keyof ServerToClientEvents>(
      loaded: Loaded,
      event: E,
      build: (chat: ReturnType<typeof chatRef>, userId: number) => Parameters<ServerToClientEvents[E]>[0],
      audience?: Audience,
      skipSocket?: string,
    ) {
      const toUser = (userId: number, payload: unknown) =>
        skipSocket === undefined
          ? (gateway.emitToUser as (u: number, e: E, p: unknown) => void)(userId, event, payload)
          : (gateway.emitToUserExcept as (s: string, u: number, e: E, p: unknown) => void)(
              skipSocket,
              userId,
              event,
              payload,
            );
      // Whatever members hear about may change how their chat lists read: dropped before they refetch.
      listChanged({
        conversations: [loaded.conversation.id],
        // A pair's first message or pin puts a chat on both lists that their cached pages do not know of.
        users: isRoomChat(loaded.conversation)
          ? []
          : [...new Set([...pairUserIds(loaded.conversation), ...loaded.members.map((m) => m.user_id)])],
      });
      if (isRoomChat(loaded.conversation)) {
        const ref = chatRef(loaded.conversation, [], 0);
        if (audience && 'only' in audience) {
          toUser(audience.only, build(ref, audience.only));
          return;
        }
        const target = gateway.io.to(chatRoom(loaded.conversation));
        const to = audience ? target.except(rooms.user(audience.except)) : target;
        (to.emit as (e: E, p: unknown) => boolean)(event, build(ref, 0));
        return;
      }
      for (const member of loaded.members) {
        if (!inAudience(audience, member.user_id)) continue;
        toUser(
          member.user_id,
          build(chatRef(loaded.conversation, loaded.members, member.user_id), member.user_id),
        );
      }
    },
  };
}

export type ConversationTools = ReturnType<typeof conversationTools>;
