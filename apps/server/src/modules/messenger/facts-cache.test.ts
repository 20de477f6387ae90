// @own-process: it measures how its own heap grows (apps/server/vitest.projects.ts).
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { messengerFacts, pairUserIds } from './facts-cache.ts';

const chat = (id: number, low: number, high: number) => ({
  id,
  type: low === high ? ('favorites' as const) : ('personal' as const),
  user_low: low,
  user_high: high,
});

it('finds a pair’s chat from either side and by id; forgetting drops both', () => {
  const facts = messengerFacts();
  facts.rememberConversation(chat(7, 3, 9));
  expect(facts.pair(9, 3)?.id).toBe(7);
  expect(facts.pair(3, 9)?.id).toBe(7);
  expect(facts.conversation(7)?.user_high).toBe(9);
  expect(facts.pair(3, 4)).toBeUndefined();
  facts.forgetPair(9, 3);
  expect(facts.pair(3, 9)).toBeUndefined();
  expect(facts.conversation(7)).toBeUndefined();
});

it('keeps a group or channel by id only (its kind never changes), never as a pair', () => {
  const facts = messengerFacts();
  const group = { id: 8, type: 'group' as const, user_low: null, user_high: null };
  facts.rememberConversation(group);
  expect(facts.conversation(8)).toEqual(group);
  facts.rememberConversation({ id: 9, type: 'channel', user_low: 1, user_high: 2 });
  expect(facts.conversation(9)?.type).toBe('channel');
  expect(facts.pair(1, 2)).toBeUndefined();
});

it('keeps the newest messages’ facts in fixed slots: a newer message takes an older one’s slot, never back', () => {
  const facts = messengerFacts({ maxMessages: 4 });
  facts.rememberMessage(1, { conversation_id: 7, sender_id: 3 });
  facts.rememberMessage(2, { conversation_id: 8, sender_id: 9 });
  expect(facts.message(1)).toEqual({ conversation_id: 7, sender_id: 3 });
  expect(facts.message(2)).toEqual({ conversation_id: 8, sender_id: 9 });
  expect(facts.message(3)).toBeUndefined();
  facts.rememberMessage(5, { conversation_id: 7, sender_id: 4 });
  expect(facts.message(1)).toBeUndefined();
  expect(facts.message(5)).toEqual({ conversation_id: 7, sender_id: 4 });
  // A lookup of the older message (a late ack) finds it in the database and remembers it: it must not evict 5.
  facts.rememberMessage(1, { conversation_id: 7, sender_id: 3 });
  expect(facts.message(5)?.sender_id).toBe(4);
  expect(facts.message(1)).toBeUndefined();
});

it('remembers a message’s facts without growing the heap (the soak’s heap grew with one entry per message)', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const facts = messengerFacts();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let id = 1; id <= 100_000; id += 1)
    facts.rememberMessage(id, { conversation_id: 1 + (id % 500), sender_id: 1 + (id % 200) });
  gc();
  // A map of objects held ~130 bytes a message here (13 MB); the slots hold them in memory allocated up front.
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(1_000_000);
  expect(facts.message(100_000)).toEqual({ conversation_id: 1, sender_id: 1 });
  expect(facts.message(99_999)).toEqual({ conversation_id: 500, sender_id: 200 });
});

it('keeps no facts for ids it cannot hold rather than wrong ones', () => {
  const facts = messengerFacts({ maxMessages: 4 });
  facts.rememberMessage(2 ** 31 + 1, { conversation_id: 7, sender_id: 3 });
  expect(facts.message(2 ** 31 + 1)).toBeUndefined();
  expect(facts.message(1)).toBeUndefined();
  facts.rememberMessage(6, { conversation_id: 2 ** 32, sender_id: 3 });
  expect(facts.message(6)).toBeUndefined();
});

it('names favorites’ single member once', () => {
  expect(pairUserIds(chat(1, 5, 5))).toEqual([5]);
  expect(pairUserIds(chat(2, 5, 6))).toEqual([5, 6]);
});
