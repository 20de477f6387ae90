import { expect, it } from 'vitest';
import { type SenderCard, senderCards } from './sender-cards.ts';

const users = new Map<number, SenderCard>([
  [1, { username: 'anna', name: 'Анна', avatar_url: null }],
  [2, { username: 'boris', name: 'Борис', avatar_url: '/a/2.webp' }],
]);

function loader() {
  const calls: number[][] = [];
  const load = async (ids: number[]) => {
    calls.push(ids);
    return ids.flatMap((id) => {
      const card = users.get(id);
      return card ? [{ id, ...card }] : [];
    });
  };
  return { calls, load };
}

it('loads the missing cards once, in one query, and answers later sends from memory', async () => {
  const { calls, load } = loader();
  const cards = senderCards(load, { capacity: 10, ttlMs: 60_000 });
  const first = await cards.of([1, 2, 1]);
  expect(first.get(2)).toEqual(users.get(2));
  expect(calls).toEqual([[1, 2]]);
  expect((await cards.of([2, 1])).get(1)?.name).toBe('Анна');
  expect(calls).toHaveLength(1);
});

it('leaves out a user the database no longer has, and asks for it again next time', async () => {
  const { calls, load } = loader();
  const cards = senderCards(load, { capacity: 10, ttlMs: 60_000 });
  expect((await cards.of([1, 99])).has(99)).toBe(false);
  await cards.of([99]);
  expect(calls).toEqual([[1, 99], [99]]);
});

it('forgets a changed profile: the next send reads the new name', async () => {
  const { calls, load } = loader();
  const cards = senderCards(load, { capacity: 10, ttlMs: 60_000 });
  await cards.of([1]);
  users.set(1, { username: 'anna', name: 'Анна К.', avatar_url: null });
  cards.forget([1]);
  expect((await cards.of([1])).get(1)?.name).toBe('Анна К.');
  expect(calls).toEqual([[1], [1]]);
  users.set(1, { username: 'anna', name: 'Анна', avatar_url: null });
});

it('does not keep what a load read before a change it overlapped (it may be the old profile)', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let loads = 0;
  const cards = senderCards(
    async (ids) => {
      loads += 1;
      await gate;
      return ids.map((id) => ({ id, username: 'anna', name: 'Старое имя', avatar_url: null }));
    },
    { capacity: 10, ttlMs: 60_000 },
  );
  const pending = cards.of([1]);
  cards.forget([1]);
  release();
  expect((await pending).get(1)?.name).toBe('Старое имя');
  await cards.of([1]);
  expect(loads).toBe(2);
});
