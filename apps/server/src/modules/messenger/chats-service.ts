import {
  type ChatListItem,
  type ChatPinResponse,
  type ChatTarget,
  ErrorCode,
  ErrorText,
  type MessageSearchResponse,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { ChatListCache } from './chat-list-cache.ts';
import type { ChatRow, ChatsRepository } from './chats-repository.ts';
import type { Loaded } from './conversations.ts';
import { chatRef, toChatListItem } from './mappers.ts';
import type { MemberRow, MessengerRepository } from './repository.ts';
import type { MessagesService } from './service.ts';

/** The chat list, chat and message search, pins and chat deletion. */
export function chatsService(deps: {
  repo: MessengerRepository;
  chats: ChatsRepository;
  messages: MessagesService;
  limits: RateLimits;
  /** The list from its start, per user and node (chat-list-cache.ts); absent: always read. */
  cache?: ChatListCache;
}) {
  const { repo, chats, messages, limits, cache } = deps;
  const { tools } = messages;

  // A cached list (the same rows array on every hit) is mapped once, not on every read.
  const mapped = new WeakMap<ChatRow[], ChatListItem[]>();
  function items(rows: ChatRow[], userId: number, count = rows.length): ChatListItem[] {
    let out = mapped.get(rows);
    if (!out) {
      out = rows.map((r) => toChatListItem(r, userId));
      mapped.set(rows, out);
    }
    return count < out.length ? out.slice(0, count) : out;
  }

  /** The list from its start (offset 0): `limit` rows, or all of it when null. */
  function fromStart(userId: number, limit: number | null): Promise<ChatRow[]> {
    const load = async () => {
      const [ids, rows] = await Promise.all([
        chats.chatIds(userId),
        chats.list(userId, limit ?? undefined, 0),
      ]);
      return { chats: ids, rows };
    };
    if (!cache) return load().then((r) => r.rows);
    return cache.firstPage(userId, limit, load);
  }

  /**
   * Per cached start of a list (its rows array, so it goes exactly when the cache drops the page): the
   * answer's bytes as sent, and the receipts loading it counts as (stored once: a repeat moves nothing).
   */
  const stored = new WeakMap<ChatRow[], { body?: Promise<Buffer>; delivered?: Promise<void> }>();

  /** Loading the list is a device syncing: newer messages from peers count as delivered. */
  async function deliverListed(userId: number, rows: ChatRow[]) {
    const pending = rows.filter(
      (r) => r.lm_id !== null && r.lm_sender_id !== userId && r.lm_id > r.my_last_delivered_id,
    );
    if (pending.length === 0) return;
    // One statement for every chat on the list. Group and channel receipts are "someone else got it",
    // told on read, not per member; the other member of a personal chat hears that it moved.
    const moved = await messages.listDelivered(
      userId,
      pending.map((r) => ({
        conversation: { id: r.conversation_id, type: r.type, user_low: null, user_high: null },
        upTo: r.lm_id as number,
      })),
    );
    const movedIds = new Set(moved.map((m) => m.conversation_id));
    const personal = pending.filter(
      (r) => (r.type === 'personal' || r.type === 'favorites') && movedIds.has(r.conversation_id),
    );
    if (personal.length === 0) return;
    const members = new Map<number, MemberRow[]>();
    for (const m of await repo.members(personal.map((r) => r.conversation_id)))
      members.set(m.conversation_id, [...(members.get(m.conversation_id) ?? []), m]);
    for (const row of personal) {
      const loaded = {
        conversation: { id: row.conversation_id, type: row.type, user_low: null, user_high: null },
        members: members.get(row.conversation_id) ?? [],
      };
      tools.fanOut(loaded, 'message-delivered', (chat) => ({ chat, up_to_message_id: row.lm_id as number }), {
        except: userId,
      });
    }
  }

  /** The chat a target names: `other` is the peer (own id for favorites), null for a group or channel. */
  async function existingChat(
    userId: number,
    target: ChatTarget,
  ): Promise<{ other: number | null; loaded: Loaded | null }> {
    if ('group_id' in target || 'channel_id' in target) {
      const room =
        'group_id' in target
          ? await messages.roomChat(userId, 'group', target.group_id)
          : await messages.roomChat(userId, 'channel', target.channel_id);
      return { other: null, loaded: { conversation: room.conversation, members: [room.me] } };
    }
    const other = 'is_favorites' in target ? userId : target.chat_user_id;
    return { other, loaded: await tools.findChat(userId, other) };
  }

  return {
    /**
     * The list from its start (`limit` rows with `has_more`, or all of it when null) as the bytes `render`
     * makes of the answer (the route's serializer, after the privacy of last seen): made once per cached
     * page and served as stored until the cache drops the page.
     */
    async startBody(
      userId: number,
      limit: number | null,
      render: (answer: { chats: ChatListItem[]; has_more?: boolean }) => Promise<Buffer>,
    ): Promise<Buffer> {
      const rows = await fromStart(userId, limit === null ? null : limit + 1);
      let entry = stored.get(rows);
      if (!entry) {
        entry = {};
        stored.set(rows, entry);
      }
      const shown = limit === null ? rows : rows.slice(0, limit);
      const known = entry;
      known.delivered ??= deliverListed(userId, shown).catch((err: unknown) => {
        known.delivered = undefined;
        throw err;
      });
      await known.delivered;
      known.body ??= render(
        limit === null
          ? { chats: items(rows, userId) }
          : { chats: items(rows, userId, limit), has_more: rows.length > limit },
      ).catch((err: unknown) => {
        known.body = undefined;
        throw err;
      });
      return known.body;
    },

    /** One page of the chat list in its order (past its start, which `startBody` serves); `has_more` when more follow. */
    async page(
      userId: number,
      limit: number,
      offset: number,
    ): Promise<{ chats: ChatListItem[]; has_more: boolean }> {
      const rows =
        offset === 0 ? await fromStart(userId, limit + 1) : await chats.list(userId, limit + 1, offset);
      const page = rows.slice(0, limit);
      await deliverListed(userId, page);
      return { chats: items(rows, userId, limit), has_more: rows.length > limit };
    },

    async searchByName(userId: number, query: string): Promise<ChatListItem[]> {
      const q = query.trim();
      if (q === '') return [];
      await limits.consume('search', { user: userId });
      return (await chats.searchByName(userId, q)).map((r) => toChatListItem(r, userId));
    },

    async pin(userId: number, target: ChatTarget, pinned: boolean): Promise<ChatPinResponse> {
      const found = await existingChat(userId, target);
      const { other } = found;
      // Pinning never opens a chat with someone (that would let typing through to a stranger who never
      // wrote): only favorites are made on the way.
      const loaded =
        other === null
          ? found.loaded
          : pinned && other === userId
            ? await tools.openChat(userId, other)
            : await tools.findChat(userId, other);
      if (!loaded) {
        if (pinned) throw errors.notFound(ErrorText.chatNotFound);
        return { is_pinned: false, pin_order: null };
      }
      const me = loaded.members.find((m) => m.user_id === userId);
      if (!me) throw errors.forbidden(ErrorText.chatUnavailable);
      if (pinned && me.pin_order !== null) return { is_pinned: true, pin_order: me.pin_order };
      const order = pinned ? await repo.nextPinOrder(userId) : null;
      await repo.setPin(loaded.conversation.id, userId, order);
      tools.fanOut(
        loaded,
        'chat-updated',
        (chat) => ({ chat, change: pinned ? 'pinned' : 'unpinned', pin_order: order }),
        { only: userId },
      );
      return { is_pinned: pinned, pin_order: order };
    },

    /** Removes the chat and its history for this user only; favorites are refused. */
    async remove(userId: number, target: ChatTarget): Promise<void> {
      const { other, loaded } = await existingChat(userId, target);
      if (other === userId)
        throw new AppError(400, ErrorCode.cannotDeleteFavorites, ErrorText.cannotDeleteFavorites);
      if (!loaded) throw errors.notFound(ErrorText.chatNotFound);
      await repo.clear(loaded.conversation.id, userId, await repo.latestMessageId(loaded.conversation.id));
      tools.fanOut(loaded, 'chat-updated', (chat) => ({ chat, change: 'deleted', pin_order: null }), {
        only: userId,
      });
    },

    async searchMessages(
      userId: number,
      query: string,
      limit: number,
      offset: number,
    ): Promise<MessageSearchResponse> {
      const q = query.trim();
      if (q === '') return { results: [], has_more: false };
      await limits.consume('search', { user: userId });
      const hits = await chats.searchMessages(userId, q, limit + 1, offset);
      const page = hits.slice(0, limit);
      const rows = await repo.messagesByIds(page.map((h) => h.id));
      const members = await repo.members([...new Set(page.map((h) => h.conversation_id))]);
      const hydrated = await tools.hydrate(rows, members, userId);
      const byId = new Map(hydrated.map((m) => [m.id, m]));
      const results = page.flatMap((hit) => {
        const message = byId.get(hit.id);
        if (!message) return [];
        const chat = chatRef(
          { id: hit.conversation_id, type: hit.type, user_low: null, user_high: null },
          members,
          userId,
        );
        return [{ chat, message }];
      });
      return { results, has_more: hits.length > limit };
    },

    /** Presence audience: the people one has personal chats with. */
    peers: (userId: number) => chats.peers(userId),
  };
}

export type ChatsService = ReturnType<typeof chatsService>;
