import { ErrorText } from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { Advance, BatchQueries } from './batch-queries.ts';
import { batcher } from './batcher.ts';
import { type ConversationTools, isRoomChat, type Loaded, pairMembers } from './conversations.ts';
import type { MessageFacts, MessengerFacts } from './facts-cache.ts';
import type { ConversationRow, MemberRow, MessengerRepository } from './repository.ts';

interface Ack {
  userId: number;
  ids: number[];
}

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
}) {
  const { repo, queries, facts, tools } = deps;

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

  /** The chats with their members: pairs from the cache or one lookup; other kinds from their member rows. */
  async function chats(ids: number[]): Promise<Map<number, Loaded>> {
    const out = new Map<number, Loaded>();
    const missing: number[] = [];
    for (const id of ids) {
      const known = facts.conversation(id);
      if (known) out.set(id, { conversation: known, members: pairMembers(known) });
      else missing.push(id);
    }
    const rows = await queries.conversations(missing);
    const others = rows.filter((c) => c.type !== 'personal' && c.type !== 'favorites');
    const members: MemberRow[] = await repo.members(others.map((c) => c.id));
    for (const c of rows as ConversationRow[]) {
      facts.rememberConversation(c);
      const own = others.includes(c) ? members.filter((m) => m.conversation_id === c.id) : pairMembers(c);
      out.set(c.id, { conversation: c, members: own });
    }
    return out;
  }

  async function run(acks: Ack[]): Promise<Array<Error | null>> {
    const byId = await messageFacts([...new Set(acks.flatMap((a) => a.ids))]);
    const loaded = await chats([...new Set([...byId.values()].map((f) => f.conversation_id))]);
    const results: Array<Error | null> = [];
    const highest = new Map<string, Advance>();
    for (const ack of acks) {
      const known = ack.ids.flatMap((id) => {
        const f = byId.get(id);
        return f ? [{ id, ...f }] : [];
      });
      const foreign = known.some(
        (m) => !loaded.get(m.conversation_id)?.members.some((u) => u.user_id === ack.userId),
      );
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
    const ordered = [...highest.values()].sort(
      (a, b) => a.conversation_id - b.conversation_id || a.user_id - b.user_id,
    );
    for (const moved of await queries.advanceDelivered(ordered)) {
      const chat = loaded.get(moved.conversation_id);
      // Group and channel receipts are "someone else got it", told on read, not per member and device.
      if (!chat || isRoomChat(chat.conversation)) continue;
      tools.fanOut(chat, 'message-delivered', (ref) => ({ chat: ref, up_to_message_id: moved.up_to }), {
        except: moved.user_id,
      });
    }
    return results;
  }

  // One batch at a time: concurrent multi-row watermark updates could lock rows in opposite orders.
  const queue = batcher(run, { maxBatch: 500, maxInFlight: 1 });

  return {
    /** A device of `userId` received these messages; 403 if any is from a chat they are not in. */
    async delivered(userId: number, messageIds: number[]): Promise<void> {
      const failure = await queue.push({ userId, ids: [...new Set(messageIds)] });
      if (failure) throw failure;
    },
    drained: queue.drained,
  };
}

export type DeliveryAcks = ReturnType<typeof deliveryAcks>;
