import type { Bus } from '../../lib/bus.ts';
import type { MediaChange } from '../media/cache/feed-cache.ts';
import { ReadThroughCache } from '../media/cache/read-through.ts';
import type { ProfileChange } from '../profile/cache.ts';
import { FirstPages } from './first-pages.ts';
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

/** The other caches' change notices a built page depends on (each heard on every node). */
export interface PageSources {
  /** Names and avatars (`ids`), follows (`pair[0]` follows or unfollows `pair[1]`). */
  profiles: { onChange(listener: (change: ProfileChange) => void): void };
  /** Blacklists (`viewers`). */
  media: { onChange(listener: (change: MediaChange) => void): void };
  /** A user's settings or blocks: who may see their stories. */
  privacy: { onChange(listener: (userId: number) => void): void };
}

/**
 * The stories read cache of one node, in the style of the feed's (ADR 0004): each author's ready stories
 * (the rows, counters included) and each viewer's marks. Authors' names and avatars come from the media
 * cache's `authors` (dropped on profile changes); followees and blacklists from its `viewers`. Every write
 * calls `changed` after it committed: the local node drops the stale entries at once and the bus carries
 * the change to every other node. The TTL only bounds memory and a notice that was lost; the 24-hour cut
 * is applied on every read, so an entry never shows an expired story.
 *
 * On top of them, `pages` keeps each viewer's first page as sent (the feed's one hot read: 200 followees'
 * groups assembled per request were 0.06 of a bare route). A page goes when any of its inputs changes:
 * this module's writes (stories of its authors, the viewer's marks), and — through `sources` — a
 * follow, a blacklist, a name or avatar, a block. It also goes at the earliest expiry of a story in it.
 */
export async function storiesCache(
  bus: Bus,
  ttlMs: number,
  options: { now?: () => number; sources?: PageSources } = {},
) {
  const cache = {
    byAuthor: new ReadThroughCache<number, StoryRow[]>(20_000, ttlMs),
    marks: new ReadThroughCache<number, StoryMarks>(20_000, ttlMs),
    pages: new FirstPages(20_000, ttlMs, options.now ?? Date.now),
  };

  function apply(change: StoriesChange) {
    if (change.authors?.length) {
      cache.byAuthor.invalidate(change.authors);
      cache.pages.dropAuthors(change.authors);
    }
    if (change.viewers?.length) {
      cache.marks.invalidate(change.viewers);
      cache.pages.dropViewers(change.viewers);
    }
  }

  await bus.subscribe(CHANNEL, (message) => apply(JSON.parse(message) as StoriesChange));
  const sources = options.sources;
  sources?.profiles.onChange(({ ids, pair }) => {
    cache.pages.dropAuthors(ids);
    if (pair) cache.pages.dropViewers([pair[0]]);
  });
  sources?.media.onChange((change) => {
    if (change.viewers?.length) cache.pages.dropViewers(change.viewers);
  });
  sources?.privacy.onChange((userId) => {
    cache.pages.dropAuthors([userId]);
    cache.pages.dropViewers([userId]);
  });

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
