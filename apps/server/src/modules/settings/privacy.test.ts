import { describe, expect, it } from 'vitest';
import { memoryBus } from '../../lib/bus.ts';
import { privacyLookups } from './privacy.ts';
import type { SettingsRepository } from './repository.ts';

/** A repository whose block-list reads answer when the test says, so a read can be made to race a change. */
function heldRepo() {
  const blocked = new Map<number, number[]>();
  const reads: Array<{ userId: number; answer: () => void }> = [];
  let following = false;
  let followReads = 0;
  const repo = {
    blockedIds: (userId: number) =>
      new Promise<number[]>((resolve) => {
        const snapshot = [...(blocked.get(userId) ?? [])];
        reads.push({ userId, answer: () => resolve(snapshot) });
      }),
    follows: async () => {
      followReads += 1;
      return following;
    },
  } as unknown as SettingsRepository;
  return {
    repo,
    reads,
    block: (blocker: number, target: number) =>
      blocked.set(blocker, [...(blocked.get(blocker) ?? []), target]),
    setFollowing: (value: boolean) => {
      following = value;
    },
    followReads: () => followReads,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function lookups(held: ReturnType<typeof heldRepo>) {
  let clock = 1_000_000;
  const follows: Array<(pair: [number, number]) => void> = [];
  const privacy = await privacyLookups({
    repo: held.repo,
    bus: memoryBus(),
    onFollowChange: (listener) => follows.push(listener),
    now: () => clock,
  });
  return {
    privacy,
    advance: (ms: number) => {
      clock += ms;
    },
    followChanged: (pair: [number, number]) => {
      for (const listener of follows) listener(pair);
    },
  };
}

describe('privacy lookups', () => {
  it('answers from the cache, and in an entry’s last quarter answers at once and reloads behind', async () => {
    const held = heldRepo();
    const { privacy, advance } = await lookups(held);
    const first = privacy.isBlocked(1, 2);
    held.reads.shift()?.answer();
    expect(await first).toBe(false);
    expect(await privacy.isBlocked(1, 2)).toBe(false);
    expect(held.reads).toHaveLength(0);

    held.block(1, 2);
    advance(47_000); // every entry lives 48–60 s: 1–13 s are left, its last quarter
    expect(await privacy.isBlocked(1, 2)).toBe(false); // answered at once, from the cache
    expect(held.reads).toHaveLength(1); // and read again behind it
    held.reads.shift()?.answer();
    await turn();
    expect(await privacy.isBlocked(1, 2)).toBe(true);
    advance(30_000); // past the first entry's end, not in the renewed one's last quarter
    expect(await privacy.isBlocked(1, 2)).toBe(true);
    expect(held.reads).toHaveLength(0);
  });

  it('a read that began before a block does not store the list without it', async () => {
    const held = heldRepo();
    const { privacy } = await lookups(held);
    const before = privacy.isBlocked(1, 2); // a cold read of 1's blocks, held at the database
    held.block(1, 2);
    await privacy.changed(1); // the block is written and announced while the read is under way
    const after = privacy.isBlocked(1, 2); // does not join the read that began before the block
    expect(held.reads).toHaveLength(2);
    const [stale, fresh] = held.reads.splice(0);
    fresh?.answer();
    expect(await after).toBe(true);
    stale?.answer(); // the read from before the block answers last
    expect(await before).toBe(false);
    const again = privacy.isBlocked(1, 2);
    expect(held.reads).toHaveLength(0); // the fresh read's list was stored, the stale one's was not
    expect(await again).toBe(true);
  });

  it('a background reload that raced a block does not bring the old list back', async () => {
    const held = heldRepo();
    const { privacy, advance } = await lookups(held);
    const cold = privacy.isBlocked(1, 2);
    held.reads.shift()?.answer();
    await cold;
    advance(47_000); // the last quarter of even the shortest life (48 s)
    expect(await privacy.isBlocked(1, 2)).toBe(false); // from the cache; a reload starts behind
    expect(held.reads).toHaveLength(1);
    held.block(1, 2);
    await privacy.changed(1);
    held.reads.shift()?.answer(); // the reload answers with the list from before the block
    await turn();
    const now = privacy.isBlocked(1, 2);
    expect(held.reads).toHaveLength(1);
    held.reads.shift()?.answer();
    expect(await now).toBe(true);
  });

  it('forgets a follow when it changes', async () => {
    const held = heldRepo();
    const { privacy, followChanged } = await lookups(held);
    expect(await privacy.isFollowing(3, 4)).toBe(false);
    expect(await privacy.isFollowing(3, 4)).toBe(false);
    expect(held.followReads()).toBe(1);
    held.setFollowing(true);
    followChanged([3, 4]);
    expect(await privacy.isFollowing(3, 4)).toBe(true);
    expect(held.followReads()).toBe(2);
  });
});
