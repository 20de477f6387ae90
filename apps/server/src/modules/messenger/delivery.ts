import { ErrorText } from '@kadr/contract';
import { batcher } from '../../lib/batcher.ts';
import { errors } from '../../lib/errors.ts';
import type { Advance, BatchQueries } from './batch-queries.ts';
import { type ConversationTools, isRoomChat, type Loaded, pairMembers } from './conversations.ts';
import type { MessageFacts, MessengerFacts } from './facts-cache.ts';
import type { ConversationRow, MessengerRepository } from './repository.ts';

interface Ack {
  userId: number;
  ids: number[];
  /** Set by a socket ack: whether that socket is in the group's or channel's room (= a member). */
  inRoom?: (chat: ConversationRow) => boolean;
}

/** Per-node knowledge of how far receipts in a group or channel are stored, kept for a short while. */
const ROOM_RECEIPTS_TTL_MS = 30_000;

/** How long a delivery ack waits for others to share its statement. */
const ACK_LINGER_MS = 20;

interface Receivers {
  /** The two furthest receivers known stored, furthest first (distinct users). */
  top: Array<{ userId: number; upTo: number }>;
  expiresAt: number;
}

/**
 * A group or channel message shows as delivered once any member other than its sender received it, so
 * once two different members' stored watermarks reach `upTo`, every message up to it has one receiver
 * who is not its sender: one more member's ack changes nothing anyone sees and is not written. Without
 * this, each message to a group of N cost N watermark writes (N acks). The knowledge is a lower bound
 * (other nodes only move watermarks further); a member who leaves takes their row with them, so entries
 * expire after a short while (at worst an older message shows as not yet delivered until then).
 */
export function roomReceipts(now: () => number = Date.now) {
  const known = new Map<number, Receivers>();
  const live = (conversationId: number) => {
    const entry = known.get(conversationId);
    if (entry && entry.expiresAt > now()) return entry;
    if (entry) known.delete(conversationId);
    return undefined;
  };
  return {
    /**
     * Whether storing `upTo` for `userId` would change no receipt anyone sees: two members are known
     * past it, or this member is (a second device's ack; a chat of two where the other never acks).
     */
    settled(
      conversationId: number,
      userId: number,
      upTo: number,
      pending: Array<{ user_id: number; up_to: number }> = [],
    ) {
      const past = new Set(
        [...(live(conversationId)?.top ?? []), ...pending.map((p) => ({ userId: p.user_id, upTo: p.up_to }))]
          .filter((r) => r.upTo >= upTo)
          .map((r) => r.userId),
      );
      return past.has(userId) || past.size >= 2;
    },
    /** A watermark known to be stored (moved by this node's update). */
    stored(conversationId: number, userId: number, upTo: number) {
      const entry = live(conversationId) ?? { top: [], expiresAt: now() + ROOM_RECEIPTS_TTL_MS };
      const others = entry.top.filter((r) => r.userId !== userId);
      const mine = entry.top.find((r) => r.userId === userId);
      const top = [...others, { userId, upTo: Math.max(upTo, mine?.upTo ?? 0) }]
        .sort((a, b) => b.upTo - a.upTo)
        .slice(0, 2);
      known.set(conversationId, { top, expiresAt: entry.expiresAt });
      if (known.size > 50_000) known.delete(known.keys().next().value as number);
    },
    forget(conversationId: number) {
      known.delete(conversationId);
    },
  };
}

export type RoomReceipts = ReturnType<typeof roomReceipts>;

/**
 * Delivery acks (`message-delivered` from a device, `POST /messages/delivered`), coalesced: every ack that
 * arrives while the previous batch runs goes into one watermark UPDATE, message and chat facts come from
 * the per-node cache (one lookup for the misses), and each moved watermark is announced once, with the
 * highest id, to the other members. Each ack still answers for itself (403 when it names a foreign chat).
 */
export function deliveryAcks(deps: {
  repo: MessengerRepository;
  queries: BatchQueries;
  facts: MessengerFacts;
  tools: ConversationTools;
  receipts?: RoomReceipts;
}) {
  const { queries, facts, tools } = deps;
  const receipts = deps.receipts ?? roomReceipts();

  async function messageFacts(ids: number[]): Promise<Map<number, MessageFacts>> {
    const found = new Map<number, MessageFacts>();
    const missing: number[] = [];
    for (const id of ids) {
      const known = facts.message(id);
      if (known) found.set(id, known);
      else missing.push(id);
    }
    for (const row of await queries.messageFacts(missing)) {
      facts.rememberMessage(row.id, row);
      found.set(row.id, row);
    }
    return found;
  }

  /**
   * The chats, from the cache or one lookup. Personal chats and favorites come with their pair; a group's
   * or channel's members are not loaded (thousands of rows per ack batch): membership is checked per ack.
   */
  async function chats(ids: number[]): Promise<Map<number, Loaded>> {
    const out = new Map<number, Loaded>();
    const missing: number[] = [];
    for (const id of ids) {
      const known = facts.conversation(id);
      if (known) out.set(id, { conversation: known, members: isRoomChat(known) ? [] : pairMembers(known) });
      else missing.push(id);
    }
    for (const c of (await queries.conversations(missing)) as ConversationRow[]) {
      facts.rememberConversation(c);
      out.set(c.id, { conversation: c, members: isRoomChat(c) ? [] : pairMembers(c) });
    }
    return out;
  }

  /** `conversation:user` of the acks' room memberships that a socket did not vouch for, looked up at once. */
  async function roomMembers(acks: Ack[], byId: Map<number, MessageFacts>, loaded: Map<number, Loaded>) {
    const asked: Array<{ conversation_id: number; user_id: number }> = [];
    for (const ack of acks)
      for (const id of ack.ids) {
        const chat = loaded.get(byId.get(id)?.conversation_id ?? 0)?.conversation;
        if (chat && isRoomChat(chat) && !ack.inRoom?.(chat))
          asked.push({ conversation_id: chat.id, user_id: ack.userId });
      }
    const found = await queries.memberPairs(asked);
    return new Set(found.map((m) => `${m.conversation_id}:${m.user_id}`));
  }

  async function run(acks: Ack[]): Promise<Array<Error | null>> {
    const byId = await messageFacts([...new Set(acks.flatMap((a) => a.ids))]);
    const loaded = await chats([...new Set([...byId.values()].map((f) => f.conversation_id))]);
    const members = await roomMembers(acks, byId, loaded);
    const isMember = (ack: Ack, chat: Loaded) =>
      isRoomChat(chat.conversation)
        ? ack.inRoom?.(chat.conversation) || members.has(`${chat.conversation.id}:${ack.userId}`)
        : chat.members.some((u) => u.user_id === ack.userId);
    const results: Array<Error | null> = [];
    const highest = new Map<string, Advance>();
    for (const ack of acks) {
      const known = ack.ids.flatMap((id) => {
        const f = byId.get(id);
        return f ? [{ id, ...f }] : [];
      });
      const foreign = known.some((m) => {
        const chat = loaded.get(m.conversation_id);
        return !chat || !isMember(ack, chat);
      });
      results.push(foreign ? errors.forbidden(ErrorText.chatUnavailable) : null);
      if (foreign) continue;
      for (const m of known) {
        if (m.sender_id === ack.userId) continue;
        const key = `${m.conversation_id}:${ack.userId}`;
        const prev = highest.get(key);
        if (!prev || prev.up_to < m.id)
          highest.set(key, { conversation_id: m.conversation_id, user_id: ack.userId, up_to: m.id });
      }
    }
    for (const moved of await advance([...highest.values()], loaded)) {
      const chat = loaded.get(moved.conversation_id);
      // Group and channel receipts are "someone else got it", told on read, not per member and device.
      if (!chat || isRoomChat(chat.conversation)) continue;
      tools.fanOut(chat, 'message-delivered', (ref) => ({ chat: ref, up_to_message_id: moved.up_to }), {
        except: moved.user_id,
      });
    }
    return results;
  }

  /**
   * Stores the advances that change a receipt (see `roomReceipts`): in a group or channel, the furthest
   * ones until two members are known past the rest. Answers those that moved.
   */
  async function advance(advances: Advance[], loaded: Map<number, Loaded>): Promise<Advance[]> {
    const isRoom = (a: Advance) => {
      const chat = loaded.get(a.conversation_id)?.conversation;
      return chat !== undefined && isRoomChat(chat);
    };
    const needed: Advance[] = [];
    const chosen: Advance[] = [];
    for (const a of [...advances].sort((x, y) => y.up_to - x.up_to)) {
      if (!isRoom(a)) {
        needed.push(a);
        continue;
      }
      const mine = chosen.filter((c) => c.conversation_id === a.conversation_id);
      if (receipts.settled(a.conversation_id, a.user_id, a.up_to, mine)) continue;
      needed.push(a);
      chosen.push(a);
    }
    const ordered = needed.sort((a, b) => a.conversation_id - b.conversation_id || a.user_id - b.user_id);
    // Known from now on (a chosen watermark that does not move is already at least as far), so the acks
    // that arrive while this statement runs are settled at once instead of queueing for the next batch.
    for (const c of chosen) receipts.stored(c.conversation_id, c.user_id, c.up_to);
    let moved: Advance[];
    try {
      moved = await queries.advanceDelivered(ordered);
    } catch (err) {
      // Not stored after all: what this node believed of these chats may be ahead of the database.
      for (const c of chosen) receipts.forget(c.conversation_id);
      throw err;
    }
    // Personal chats tell their members (fanOut drops their lists); a group's receipt shows on lists too.
    const rooms = [...new Set(moved.filter(isRoom).map((m) => m.conversation_id))];
    if (rooms.length > 0) tools.listChanged({ conversations: rooms });
    return moved;
  }

  // One batch at a time: concurrent multi-row watermark updates could lock rows in opposite orders.
  // A receipt waits up to 20 ms for others (unseen beside a message's own latency): at 500 msg/s that is one
  // statement for ~10 acks instead of ten, each of which held PGlite's thread (the sends' too) for ~0.4 ms.
  const queue = batcher(run, { maxBatch: 500, maxInFlight: 1, lingerMs: ACK_LINGER_MS });

  return {
    /**
     * Whether a socket's ack can be answered at once, from what this node knows: every message is a
     * known group or channel message, the socket is in its room (a member), and storing the ack would
     * change no receipt (the member's own message, or `roomReceipts` settled). The batch would store
     * nothing for it either; in a group of N each message brings N-1 such acks, and they skip the queue.
     */
    settledAck(userId: number, ids: number[], inRoom: (chat: ConversationRow) => boolean): boolean {
      for (const id of ids) {
        const message = facts.message(id);
        if (!message) return false;
        const chat = facts.conversation(message.conversation_id);
        if (!chat || !isRoomChat(chat) || !inRoom(chat)) return false;
        if (message.sender_id !== userId && !receipts.settled(chat.id, userId, id)) return false;
      }
      return true;
    },
    /** A device of `userId` received these messages; 403 if any is from a chat they are not in. */
    async delivered(
      userId: number,
      messageIds: number[],
      inRoom?: (chat: ConversationRow) => boolean,
    ): Promise<void> {
      const failure = await queue.push({ userId, ids: [...new Set(messageIds)], inRoom });
      if (failure) throw failure;
    },
    /**
     * Watermarks of a member's chats moved by loading them (the chat list): stored in one statement (in a
     * group or channel only where they change a receipt). Answers those that moved; telling the members
     * of a personal chat is the caller's. The caller has checked membership.
     */
    async listDelivered(
      userId: number,
      chats: Array<{ conversation: ConversationRow; upTo: number }>,
    ): Promise<Advance[]> {
      const loaded = new Map(
        chats.map((c) => [c.conversation.id, { conversation: c.conversation, members: [] }]),
      );
      return advance(
        chats.map((c) => ({ conversation_id: c.conversation.id, user_id: userId, up_to: c.upTo })),
        loaded,
      );
    },
    /** A member left or was removed: what this node knew of the chat's receivers may name them. */
    forgetRoom: receipts.forget,
    drained: queue.drained,
  };
}

export type DeliveryAcks = ReturnType<typeof deliveryAcks>;
