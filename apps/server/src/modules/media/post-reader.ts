import { FEED_CANDIDATES, type FeedCache, markKey } from './cache/feed-cache.ts';
import { type FeedViewer, GUEST, isHidden, rankFeed, windowSize } from './feed-ranking.ts';
import { LIKED, type PostBody, REPOSTED, type ReadRepository, SAVED } from './read-repository.ts';
import type { ReadPost } from './render.ts';

const isDone = (body: PostBody) => body.status === 'done';

/**
 * The reader's own copy of a body when they reported some of its comments: the count leaves those out, as
 * the thread does. Rare, so the shared body (and its encoded parts) stays the common case.
 */
function withoutHiddenComments(body: PostBody, hidden: number | undefined): PostBody {
  if (!hidden) return body;
  return { ...body, comments_count: Math.max(0, body.comments_count - hidden) };
}

/**
 * Turns post ids into posts as one reader sees them from the read cache: bodies and authors shared by all readers,
 * the reader's marks and blacklist per reader. With everything cached a page costs no query; a miss costs
 * one query per kind (bodies, authors, marks), never one per post. Unfinished posts are read, never cached.
 */
export function postReader(read: ReadRepository, cache: FeedCache) {
  function viewerState(viewer: number | null): Promise<FeedViewer> {
    if (viewer === null) return Promise.resolve(GUEST);
    return cache.viewers.get(viewer, () => read.viewer(viewer));
  }

  /** The reader's marks on these posts (bits by post id): cached ones from memory, the rest in one query. */
  async function marks(viewer: number | null, ids: number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>();
    if (viewer === null) return found;
    const missing: number[] = [];
    for (const id of ids) {
      const bits = cache.marks.peek(markKey(viewer, id));
      if (bits === undefined) missing.push(id);
      else found.set(id, bits);
    }
    if (missing.length === 0) return found;
    const loaded = await cache.marks.loadMany(
      missing.map((id) => markKey(viewer, id)),
      async () => {
        const rows = await read.flags(viewer, missing);
        return new Map(missing.map((id) => [markKey(viewer, id), rows.get(id) ?? 0]));
      },
    );
    for (const id of missing) found.set(id, loaded.get(markKey(viewer, id)) ?? 0);
    return found;
  }

  /**
   * The posts that still exist, in the order of `ids`; a list leaves out what the reader reported, a post
   * opened by its link (`opened`) still shows.
   */
  async function posts(ids: number[], viewer: number | null, opened = false): Promise<ReadPost[]> {
    if (ids.length === 0) return [];
    const [bodies, state, flags] = await Promise.all([
      cache.bodies.getMany(ids, (missing) => read.bodies(missing), isDone),
      viewerState(viewer),
      marks(viewer, ids),
    ]);
    const authorIds = [...new Set([...bodies.values()].map((b) => b.user_id))];
    const authors = await cache.authors.getMany(authorIds, (missing) => read.authors(missing));
    const out: ReadPost[] = [];
    for (const id of ids) {
      const shared = bodies.get(id);
      const user = shared && authors.get(shared.user_id);
      if (!shared || !user || (!opened && state.hiddenPosts?.has(id))) continue;
      const body = withoutHiddenComments(shared, state.hiddenComments?.get(id));
      const bits = flags.get(id) ?? 0;
      out.push({
        body,
        user,
        liked: (bits & LIKED) !== 0,
        saved: (bits & SAVED) !== 0,
        reposted: (bits & REPOSTED) !== 0,
        filtered: isHidden(body.ai_tags, state.blacklist),
      });
    }
    return out;
  }

  return {
    posts,

    /** One ranked feed page of `limit` posts at `offset` (docs/api/feed-ranking.md). */
    async feed(viewer: number | null, offset: number, limit: number): Promise<ReadPost[]> {
      const needed = windowSize(offset, limit);
      const [newest, state] = await Promise.all([
        needed > FEED_CANDIDATES
          ? read.newest(needed)
          : cache.newest.get('newest', () => read.newest(FEED_CANDIDATES)),
        viewerState(viewer),
      ]);
      return posts(rankFeed(newest, state, offset, limit), viewer);
    },
  };
}

export type PostReader = ReturnType<typeof postReader>;
