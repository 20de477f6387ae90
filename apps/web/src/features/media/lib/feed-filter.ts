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

/**
 * A post is hidden behind 'Вы скрыли подобное от себя' when the server marked it filtered or one of its
 * tags is in the caller's blacklist (which may have changed since the post was loaded).
 */
export function isHiddenByBlacklist(post: Post, blacklist: ReadonlySet<string>): boolean {
  return post.is_filtered || post.ai_tags.some((tag) => blacklist.has(tag));
}
