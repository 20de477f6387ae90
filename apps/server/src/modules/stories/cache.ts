import type { Bus } from '../../lib/bus.ts';
import { ReadThroughCache } from '../media/cache/read-through.ts';
import type { StoryMarks, StoryRow } from './repository.ts';

export type { StoryMarks } from './repository.ts';

const CHANNEL = 'kadr:stories-changed';

/** What changed, as every node hears it. */
export interface StoriesChange {
  /** Authors whose set of ready stories or whose stories' counters changed. */
  authors?: number[];
  /** Viewers whose views, likes or reports changed. */
  viewers?: number[];
}

/** One viewer's marks on live stories: what they viewed, liked and reported. */

/**
 * The stories read cache of one node, in the style of the feed's (ADR 0004): each author's ready stories
 * (the rows, counters included) and each viewer's marks. Authors' names and avatars come from the media
 * cache's `authors` (dropped on profile changes); followees and blacklists from its `viewers`. Every write
 * calls `changed` after it committed: the local node drops the stale entries at once and the bus carries
 * the change to every other node. The TTL only bounds memory and a notice that was lost; the 24-hour cut
 * is applied on every read, so an entry never shows an expired story.
 */
export async function storiesCache(bus: Bus, ttlMs: number) {
  const cache = {
    byAuthor: new ReadThroughCache<number, StoryRow[]>(20_000, ttlMs),
    marks: new ReadThroughCache<number, StoryMarks>(20_000, ttlMs),
  };

  function apply(change: StoriesChange) {
    if (change.authors?.length) cache.byAuthor.invalidate(change.authors);
    if (change.viewers?.length) cache.marks.invalidate(change.viewers);
  }

  await bus.subscribe(CHANNEL, (message) => apply(JSON.parse(message) as StoriesChange));

  return {
    ...cache,
    /** Call after a write committed: drops what it made stale here and on every other node. */
    async changed(change: StoriesChange) {
      apply(change);
      await bus.publish(CHANNEL, JSON.stringify(change));
    },
  };
}

export type StoriesCache = Awaited<ReturnType<typeof storiesCache>>;
