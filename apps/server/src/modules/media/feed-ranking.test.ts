import { describe, expect, it } from 'vitest';
import {
  FEED_WINDOW,
  type FeedCandidate,
  type FeedViewer,
  FOLLOWED_BOOST_SECONDS,
  GUEST,
  rankFeed,
} from './feed-ranking.ts';

const HOUR_US = 3600 * 1_000_000;
const T0 = Date.parse('2025-06-01T12:00:00Z') * 1000;

/** Newest first, as the candidate cache keeps them. */
function newest(list: FeedCandidate[]): FeedCandidate[] {
  return [...list].sort((a, b) => b.createdUs - a.createdUs || b.id - a.id);
}
const post = (id: number, userId: number, hoursAgo: number, tags: string[] = []): FeedCandidate => ({
  id,
  userId,
  createdUs: T0 - hoursAgo * HOUR_US,
  tags,
});
const viewer = (blacklist: string[] = [], followees: number[] = []): FeedViewer => ({
  blacklist: new Set(blacklist),
  followees: new Set(followees),
});

describe('rankFeed (docs/api/feed-ranking.md)', () => {
  it('a guest gets newest first, ties by id desc', () => {
    const list = newest([post(1, 10, 3), post(2, 11, 1), post(3, 12, 2), post(4, 13, 1)]);
    expect(rankFeed(list, GUEST, 0, 10)).toEqual([4, 2, 3, 1]);
  });

  it('posts with a hidden tag come after every other post, even much newer ones', () => {
    const list = newest([post(1, 10, 0, ['night', 'sky']), post(2, 11, 48), post(3, 12, 5, ['cats'])]);
    expect(rankFeed(list, viewer(['night']), 0, 10)).toEqual([3, 2, 1]);
    // Among hidden posts the same order holds.
    const two = newest([post(1, 10, 0, ['night']), post(2, 11, 1, ['cats']), post(3, 12, 2)]);
    expect(rankFeed(two, viewer(['night', 'cats']), 0, 10)).toEqual([3, 1, 2]);
  });

  it('followed authors count 12 h newer: 11 h older still wins, 13 h older does not', () => {
    const list = newest([post(1, 10, 0), post(2, 20, 11), post(3, 20, 13)]);
    expect(rankFeed(list, viewer([], [20]), 0, 10)).toEqual([2, 1, 3]);
    expect(rankFeed(list, GUEST, 0, 10)).toEqual([1, 2, 3]);
  });

  it('a followed post exactly 12 h older ties on time and is ordered by id desc', () => {
    const stranger = post(5, 10, 0);
    const followed = post(9, 20, FOLLOWED_BOOST_SECONDS / 3600);
    expect(rankFeed(newest([stranger, followed]), viewer([], [20]), 0, 10)).toEqual([9, 5]);
    const lowerId = { ...followed, id: 2 };
    expect(rankFeed(newest([stranger, lowerId]), viewer([], [20]), 0, 10)).toEqual([5, 2]);
  });

  it('a hidden post of a followed author still comes last', () => {
    const list = newest([post(1, 20, 0, ['night']), post(2, 10, 30)]);
    expect(rankFeed(list, viewer(['night'], [20]), 0, 10)).toEqual([2, 1]);
  });

  it('keeps microsecond order: 1 µs apart is not a tie', () => {
    const a = { id: 1, userId: 10, createdUs: T0 + 1, tags: [] };
    const b = { id: 2, userId: 11, createdUs: T0, tags: [] };
    expect(rankFeed(newest([a, b]), viewer(['x']), 0, 10)).toEqual([1, 2]);
  });

  it('ranks only within the newest offset + limit + FEED_WINDOW posts', () => {
    // One old post by a followed author, just outside the window of page 0.
    const fresh = Array.from({ length: 10 + FEED_WINDOW }, (_, i) => post(1000 + i, 10, i / 1000));
    const old = post(1, 20, 1);
    const list = newest([...fresh, old]);
    expect(list.at(-1)!.id).toBe(1);
    expect(rankFeed(list, viewer([], [20]), 0, 10)).not.toContain(1);
    // With one more post of window (limit 11) it is inside, and its 12 h boost puts it first.
    expect(rankFeed(list, viewer([], [20]), 0, 11)[0]).toBe(1);
  });

  it('pages are consecutive slices of one order, without duplicates', () => {
    const list = newest(
      Array.from({ length: 60 }, (_, i) =>
        post(i + 1, 10 + (i % 4), (i * 7) % 30, i % 5 === 0 ? ['night'] : []),
      ),
    );
    const v = viewer(['night'], [11]);
    const all = rankFeed(list, v, 0, 60);
    const pages = [0, 15, 30, 45].flatMap((offset) => rankFeed(list, v, offset, 15));
    expect(pages).toEqual(all);
    expect(new Set(all).size).toBe(60);
    const hiddenIds = list.filter((c) => c.tags.includes('night')).map((c) => c.id);
    expect(all.slice(-hiddenIds.length).sort()).toEqual(hiddenIds.sort());
  });

  it('an offset beyond the posts gives an empty page', () => {
    expect(rankFeed(newest([post(1, 10, 0)]), viewer(['x']), 5, 15)).toEqual([]);
    expect(rankFeed(newest([post(1, 10, 0)]), GUEST, 5, 15)).toEqual([]);
  });
});
