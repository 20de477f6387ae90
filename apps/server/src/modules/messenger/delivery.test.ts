import { describe, expect, it } from 'vitest';
import type { Advance, BatchQueries } from './batch-queries.ts';
import type { ConversationTools } from './conversations.ts';
import { deliveryAcks } from './delivery.ts';
import { messengerFacts } from './facts-cache.ts';
import type { ConversationRow, MessengerRepository } from './repository.ts';

const group: ConversationRow = { id: 7, type: 'group', user_low: null, user_high: null };
const inGroup = (chat: ConversationRow) => chat.id === group.id;

/** Acks over fake queries: each watermark UPDATE waits for `release()` (or fails with `fail()`). */
function setup() {
  const facts = messengerFacts();
  facts.rememberConversation(group);
  facts.rememberMessage(100, { conversation_id: group.id, sender_id: 1 });
  const written: Advance[][] = [];
  let pending: { resolve: () => void; reject: (e: Error) => void } | null = null;
  const queries = {
    messageFacts: async () => [],
    conversations: async () => [],
    memberPairs: async () => [],
    advanceDelivered: (advances: Advance[]) =>
      new Promise<Advance[]>((resolve, reject) => {
        written.push(advances);
        pending = { resolve: () => resolve(advances), reject };
      }),
  } as unknown as BatchQueries;
  const tools = { listChanged: () => undefined, fanOut: () => undefined } as unknown as ConversationTools;
  const acks = deliveryAcks({ repo: {} as MessengerRepository, queries, facts, tools });
  // A batch starts once its first ack has lingered (ACK_LINGER_MS): wait for the write on timers, not ticks.
  const started = async () => {
    for (let i = 0; i < 100 && pending === null; i += 1) await new Promise((r) => setTimeout(r, 2));
  };
  const settle = async (how: 'release' | 'fail') => {
    await started();
    const p = pending as { resolve: () => void; reject: (e: Error) => void } | null;
    pending = null;
    if (how === 'release') p?.resolve();
    else p?.reject(new Error('database gone'));
  };
  return { acks, written, settle, started };
}

describe('group acks answered without the batch', () => {
  it('settles an ack once two other members are known past it, also while their write runs', async () => {
    const { acks, written, settle } = setup();
    // Nobody is known past message 100 yet: the first acks go through the batch.
    expect(acks.settledAck(2, [100], inGroup)).toBe(false);
    const first = acks.delivered(2, [100], inGroup);
    const second = acks.delivered(3, [100], inGroup);
    await settle('release');
    await settle('release');
    await Promise.all([first, second]);
    expect(written.flat().map((a) => a.user_id)).toEqual([2, 3]);
    // Members 2 and 3 are past it: another member's ack changes nothing anyone sees.
    expect(acks.settledAck(4, [100], inGroup)).toBe(true);
    // The sender's own message, and not for a socket outside the room or an unknown message.
    expect(acks.settledAck(1, [100], inGroup)).toBe(true);
    expect(acks.settledAck(4, [100], () => false)).toBe(false);
    expect(acks.settledAck(4, [100, 101], inGroup)).toBe(false);
  });

  it('forgets what a failed write claimed, so the acks are written again one by one', async () => {
    const { acks, written, settle, started } = setup();
    const a = acks.delivered(2, [100], inGroup);
    const b = acks.delivered(3, [100], inGroup);
    await started();
    // Members 2 and 3 are being written in one statement: an ack arriving meanwhile is settled.
    expect(acks.settledAck(4, [100], inGroup)).toBe(true);
    await settle('fail');
    // Not stored after all: nothing is believed of the chat, and each ack is retried alone.
    expect(acks.settledAck(4, [100], inGroup)).toBe(false);
    await settle('release');
    await settle('release');
    await Promise.all([a, b]);
    expect(written.map((w) => w.map((x) => x.user_id))).toEqual([[2, 3], [2], [3]]);
    expect(acks.settledAck(4, [100], inGroup)).toBe(true);
  });
});
