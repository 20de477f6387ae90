import type { Bus } from '../../../lib/bus.ts';
import type { ProfileChange } from '../../profile/cache.ts';
import type { FeedCandidate, FeedViewer } from '../feed-ranking.ts';
import type { PostAuthor, PostBody } from '../read-repository.ts';
import { ReadThroughCache } from './read-through.ts';

const CHANNEL = 'kadr:media-changed';

/** How many of the newest finished posts' ranking facts each node keeps (deeper pages read them uncached). */
export const FEED_CANDIDATES = 5000;

/** What changed, as every node hears it. */
export interface MediaChange {
  /** Posts whose body changed (counters, tags, processing finished, deleted). */
  posts?: number[];
  /** The set or order of finished posts changed (a post finished, was deleted, or its tags changed). */
  feed?: boolean;
  /** Users whose blacklist changed. */
  viewers?: number[];
  /** [viewer, post] pairs whose like/save/repost marks changed. */
  marks?: [number, number][];
}

export const markKey = (viewer: number, post: number) => `${viewer}:${post}`;

/**
 * The media read cache of one node (ADR 0004): the newest posts' ranking facts, post bodies, authors'
 * summaries, each viewer's blacklist + followees, and each viewer's marks. Every write calls `changed`
 * after it committed: the local node drops the stale entries at once and the bus carries the change to
 * every other node (Redis pub/sub when scaled out). The TTL only bounds memory and a notice that was lost.
 */
export async function feedCache(
  bus: Bus,
  ttlMs: number,
  profiles: { onChange(listener: (change: ProfileChange) => void): void },
) {
  const cache = {
    newest: new ReadThroughCache<'newest', FeedCandidate[]>(1, ttlMs),
    bodies: new ReadThroughCache<number, PostBody>(20_000, ttlMs),
    authors: new ReadThroughCache<number, PostAuthor>(20_000, ttlMs),
    viewers: new ReadThroughCache<number, FeedViewer>(20_000, ttlMs),
    marks: new ReadThroughCache<string, number>(200_000, ttlMs),
  };

  const listeners: Array<(change: MediaChange) => void> = [];

  function apply(change: MediaChange) {
    for (const listener of listeners) listener(change);
    if (change.feed) cache.newest.clear();
    if (change.posts?.length) cache.bodies.invalidate(change.posts);
    if (change.viewers?.length) cache.viewers.invalidate(change.viewers);
    if (change.marks?.length) cache.marks.invalidate(change.marks.map(([v, p]) => markKey(v, p)));
  }

  await bus.subscribe(CHANNEL, (message) => apply(JSON.parse(message) as MediaChange));
  // Name or avatar changes show on the author's posts; a follow change moves the follower's feed.
  profiles.onChange(({ ids, pair }) => {
    cache.authors.invalidate(ids);
    if (pair) cache.viewers.invalidate([pair[0]]);
  });

  return {
    ...cache,
    /**
     * Caches built from these parts (the stories feed's pages) listen here: called at once on the node that
     * made the change and again on every node when the bus carries it.
     */
    onChange(listener: (change: MediaChange) => void) {
      listeners.push(listener);
    },
    /** Call after a write committed: drops what it made stale here and on every other node. */
    async changed(change: MediaChange) {
      apply(change);
      await bus.publish(CHANNEL, JSON.stringify(change));
    },
  };
}

export type FeedCache = Awaited<ReturnType<typeof feedCache>>;
