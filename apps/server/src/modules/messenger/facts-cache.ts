import { TtlCache } from '../../lib/ttl-cache.ts';
import type { ConversationRow } from './repository.ts';

/** What the send and ack paths need to know about a message: which chat it is in and who wrote it. */
export interface MessageFacts {
  conversation_id: number;
  sender_id: number;
}

// Facts here never change once written, so entries are only bounded (LRU), never stale; a day's TTL just
// lets a quiet node give memory back.
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The newest messages' chat and sender, in fixed memory: three typed arrays of `capacity` slots, message id
 * modulo the capacity naming the slot, so a newer message takes an older one's slot (ids only grow). A cache
 * of objects in a map would add three heap objects per message until its bound (the issue's soak saw the
 * heap grow ~20 MB in 30 minutes at 50 messages/s, filling for over an hour); this one is 12 bytes a slot,
 * allocated once, and adds nothing to collect. Acks and receipts name recent messages; an older one costs
 * one lookup, as a miss always did.
 */
export function recentMessageFacts(capacity: number) {
  const ids = new Int32Array(capacity);
  const chats = new Int32Array(capacity);
  const senders = new Int32Array(capacity);
  const fits = (id: number) => Number.isInteger(id) && id > 0 && id <= 0x7fffffff;
  return {
    get(id: number): MessageFacts | undefined {
      if (!fits(id)) return undefined;
      const slot = id % capacity;
      if (ids[slot] !== id) return undefined;
      return { conversation_id: chats[slot] ?? 0, sender_id: senders[slot] ?? 0 };
    },
    set(id: number, facts: MessageFacts) {
      if (!fits(id) || !fits(facts.conversation_id) || !fits(facts.sender_id)) return;
      const slot = id % capacity;
      // An older message never evicts a newer one from its slot.
      if ((ids[slot] ?? 0) > id) return;
      ids[slot] = id;
      chats[slot] = facts.conversation_id;
      senders[slot] = facts.sender_id;
    },
  };
}

/**
 * Per-node memory of immutable messenger facts, so a send or a delivery ack needs no lookup:
 * the personal chat (or favorites) of a pair of users — created once, never re-created or moved,
 * its members are the pair itself — and a message's chat and sender.
 *
 * Nothing cached can change: conversations and members are never removed (deleting a chat only
 * moves the member's `cleared_up_to` watermark), a message never changes chat or sender, and users
 * are not deleted. Nodes sharing the database therefore need no invalidation notices; each node fills
 * its own cache from the database. If a conversation ever vanished under a cached entry (a user row
 * removed by hand), `forgetPair` drops it after the insert fails, and the send retries uncached.
 * Groups and channels are cached by id only (their kind); their members do change and are not cached here.
 * A deleted group's id is never reused, and acks naming its messages find no message any more.
 */
export function messengerFacts(options: { maxChats?: number; maxMessages?: number } = {}) {
  const pairs = new TtlCache<string, ConversationRow>(options.maxChats ?? 100_000, DAY_MS);
  const conversations = new TtlCache<number, ConversationRow>(options.maxChats ?? 100_000, DAY_MS);
  const messages = recentMessageFacts(options.maxMessages ?? 1 << 17);
  const pairKey = (a: number, b: number) => `${Math.min(a, b)}:${Math.max(a, b)}`;
  const isPair = (c: ConversationRow) => c.type === 'personal' || c.type === 'favorites';

  return {
    pair(a: number, b: number): ConversationRow | undefined {
      return pairs.get(pairKey(a, b));
    },
    conversation(id: number): ConversationRow | undefined {
      return conversations.get(id);
    },
    /** A group's or channel's row (id and kind) is as immutable as a pair's; its members are not cached. */
    rememberConversation(c: ConversationRow) {
      if (!isPair(c)) {
        conversations.set(c.id, c);
        return;
      }
      if (c.user_low === null || c.user_high === null) return;
      pairs.set(pairKey(c.user_low, c.user_high), c);
      conversations.set(c.id, c);
    },
    forgetPair(a: number, b: number) {
      const key = pairKey(a, b);
      const c = pairs.get(key);
      pairs.delete(key);
      if (c) conversations.delete(c.id);
    },
    message(id: number): MessageFacts | undefined {
      return messages.get(id);
    },
    rememberMessage(id: number, facts: MessageFacts) {
      messages.set(id, facts);
    },
  };
}

export type MessengerFacts = ReturnType<typeof messengerFacts>;

/** The members of a personal chat or favorites, as the pair names them. */
export function pairUserIds(c: ConversationRow): number[] {
  return [...new Set([c.user_low, c.user_high])].filter((id): id is number => id !== null);
}
