/** Followed authors' posts rank as if they were this much newer (see docs/api/feed-ranking.md). */
export const FOLLOWED_BOOST_SECONDS = 12 * 60 * 60;
/** How many posts beyond the requested page the feed ranks. */
export const FEED_WINDOW = 500;

const BOOST_US = FOLLOWED_BOOST_SECONDS * 1_000_000;

/** What ranking needs of a finished post. `createdUs`: created_at in microseconds since the epoch (exact). */
export interface FeedCandidate {
  id: number;
  userId: number;
  createdUs: number;
  tags: readonly string[];
}

/** What ranking needs of the caller; a guest has neither. */
export interface FeedViewer {
  blacklist: ReadonlySet<string>;
  followees: ReadonlySet<number>;
  /** Posts the caller reported: gone from their feed and lists (moderation's per-reporter hidden mark). */
  hiddenPosts?: ReadonlySet<number>;
  /**
   * Post id → how many of its comments the caller reported (and so does not see in its thread): their
   * count leaves them out too. A suspended author's comments are already out of every post's count.
   */
  hiddenComments?: ReadonlyMap<number, number>;
}

export const GUEST: FeedViewer = { blacklist: new Set(), followees: new Set() };

/** How many of the newest posts a page at `offset` of `limit` posts is ranked among. */
export const windowSize = (offset: number, limit: number) => offset + limit + FEED_WINDOW;

export const isHidden = (tags: readonly string[], blacklist: ReadonlySet<string>) =>
  blacklist.size > 0 && tags.some((tag) => blacklist.has(tag));

/**
 * The ids of one feed page (docs/api/feed-ranking.md). `newest` are finished posts newest first
 * (created_at desc, id desc) — at least the first `windowSize(offset, limit)` of them, or all there are.
 * Within that window: posts with a hidden tag after all others; then created_at, with followed authors
 * counted 12 h newer; ties by id desc. Microsecond timestamps keep the order exactly the database's.
 */
export function rankFeed(
  newest: readonly FeedCandidate[],
  viewer: FeedViewer,
  offset: number,
  limit: number,
): number[] {
  if (viewer.hiddenPosts?.size) {
    const hidden = viewer.hiddenPosts;
    newest = newest.filter((c) => !hidden.has(c.id));
  }
  const size = Math.min(newest.length, windowSize(offset, limit));
  if (viewer.blacklist.size === 0 && viewer.followees.size === 0) {
    // Nothing moves: the window is already in feed order.
    return newest.slice(offset, Math.min(size, offset + limit)).map((c) => c.id);
  }
  const ranked = new Array<{ id: number; hidden: boolean; score: number }>(size);
  for (let i = 0; i < size; i++) {
    const c = newest[i]!;
    ranked[i] = {
      id: c.id,
      hidden: isHidden(c.tags, viewer.blacklist),
      score: c.createdUs + (viewer.followees.has(c.userId) ? BOOST_US : 0),
    };
  }
  ranked.sort((a, b) => Number(a.hidden) - Number(b.hidden) || b.score - a.score || b.id - a.id);
  return ranked.slice(offset, offset + limit).map((r) => r.id);
}
