import { ErrorCode, type Settings } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { defaultSettings } from './defaults.ts';
import type { PrivacyLookups } from './privacy.ts';
import { reachPolicy } from './reach.ts';

/** The policy over in-memory blocks, follows and settings (the real lookups cache the same answers). */
function policy(world: {
  blocks?: [number, number][];
  follows?: [number, number][];
  groupAdd?: Record<number, Settings['privacy']['group_add']>;
  privateAccounts?: number[];
}) {
  const blocks = world.blocks ?? [];
  const lookups = {
    isBlocked: async (blocker: number, target: number) =>
      blocks.some(([a, b]) => a === blocker && b === target),
    blockedBy: async (userId: number) => new Set(blocks.filter(([a]) => a === userId).map(([, b]) => b)),
    blockersOf: async (userId: number) => new Set(blocks.filter(([, b]) => b === userId).map(([a]) => a)),
    isFollowing: async (follower: number, followee: number) =>
      (world.follows ?? []).some(([a, b]) => a === follower && b === followee),
    settingsOf: async (userId: number) => {
      const s = defaultSettings();
      s.privacy.group_add = world.groupAdd?.[userId] ?? 'everyone';
      s.privacy.private_account = world.privateAccounts?.includes(userId) ?? false;
      return s;
    },
  } as unknown as PrivacyLookups;
  return reachPolicy(lookups);
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : 'other';
  }
};

describe('reach policy', () => {
  it('a private account’s work is for its owner and followers; a public one’s for everyone', async () => {
    const p = policy({ privateAccounts: [1], follows: [[2, 1]] });
    expect(await p.isPrivate(1)).toBe(true);
    expect(await p.isPrivate(3)).toBe(false);
    expect(await p.canSeeWork(1, 1)).toBe(true);
    expect(await p.canSeeWork(2, 1)).toBe(true);
    expect(await p.canSeeWork(3, 1)).toBe(false);
    expect(await p.canSeeWork(null, 1)).toBe(false);
    expect(await p.canSeeWork(null, 3)).toBe(true);
    expect(await codeOf(p.assertCanSeeWork(3, 1))).toBe(`403 ${ErrorCode.privateAccount}`);
    expect(await codeOf(p.assertCanSeeWork(2, 1))).toBeNull();
  });

  it('a block either way is a wall, with the reason told to each side', async () => {
    const p = policy({ blocks: [[1, 2]] });
    expect(await p.walled(1, 2)).toBe(true);
    expect(await p.walled(2, 1)).toBe(true);
    expect(await p.walled(1, 3)).toBe(false);
    expect(await codeOf(p.assertCanFollow(2, 1))).toBe(`403 ${ErrorCode.blocked}`);
    expect(await codeOf(p.assertCanFollow(1, 2))).toBe(`403 ${ErrorCode.blockedByMe}`);
    expect(await codeOf(p.assertCanInteract(3, 1))).toBeNull();
    expect(await p.canNotify(2, 1)).toBe(false);
    expect([...(await p.walledOf(2))]).toEqual([1]);
    expect([...(await p.walledOf(1))]).toEqual([2]);
  });

  it('«who can add me»: everyone adds, people I follow add, the rest invite; a block refuses', async () => {
    const p = policy({
      blocks: [[5, 6]],
      follows: [[2, 3]],
      groupAdd: { 1: 'everyone', 2: 'following', 4: 'nobody' },
    });
    expect(await p.canAddToChat(9, 1)).toBe('add');
    expect(await p.canAddToChat(3, 2)).toBe('add');
    expect(await p.canAddToChat(9, 2)).toBe('invite');
    expect(await p.canAddToChat(3, 4)).toBe('invite');
    expect(await p.canAddToChat(6, 5)).toBe('blocked');
    expect(await p.canAddToChat(5, 6)).toBe('blocked');
  });
});
