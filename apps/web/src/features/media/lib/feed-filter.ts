import type { Post } from '@kadr/contract';
import { FOR_SLEEP_TAG } from '@kadr/contract/browser';

export interface FeedFilters {
  sleepMode: boolean;
}

/** A post is shown in the feed once processed; sleep mode keeps only posts tagged for_sleep (§4.7). */
export function filterFeed(posts: readonly Post[], filters: FeedFilters): Post[] {
  return posts.filter(
    (post) =>
      post.status === 'done' &&
      post.files.length > 0 &&
      (!filters.sleepMode || post.ai_tags.includes(FOR_SLEEP_TAG)),
  );
}

/** The caller's hidden tags as loaded from the server, or null while they are not known (a guest, loading). */
export type FeedBlacklist = ReadonlySet<string> | null;

/**
 * A post is hidden behind 'Вы скрыли подобное от себя' when one of its tags is in the caller's blacklist.
 * Once the blacklist is known it is the only word — the server's is_filtered was computed when the post
 * was loaded, so un-hiding a tag must show already-loaded posts again (#10 item 10); until then the
 * server's flag stands.
 */
export function isHiddenByBlacklist(post: Post, blacklist: FeedBlacklist): boolean {
  if (blacklist === null) return post.is_filtered;
  return post.ai_tags.some((tag) => blacklist.has(tag));
}
