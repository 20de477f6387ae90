import type { Post } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { isRecord } from '../../../shared/lib/is-record.ts';

/** The fields an optimistic action may overlay on a post. */
export type PostShadow = Partial<
  Pick<Post, 'is_liked' | 'likes_count' | 'is_saved' | 'is_reposted' | 'reposts_count' | 'comments_count'>
>;

/**
 * One overlay for optimistic counters instead of patching every cached list (after Bluesky's
 * post-shadow). Shadows are keyed by the cached post object, so a fresh copy from the server (a
 * refetch) starts clean and the server's word wins again.
 */
const shadows = new WeakMap<Post, PostShadow>();
const versions = new Map<number, number>();
const listeners = new Map<number, Set<() => void>>();

function isPost(value: unknown): value is Post {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Post).id === 'number' &&
    typeof (value as Post).likes_count === 'number' &&
    'is_liked' in value &&
    Array.isArray((value as Post).files)
  );
}

/** Collects the posts with `id` in one cached value: a list, a page, an infinite query or a single post. */
function collect(data: unknown, id: number, found: Post[], depth = 0): void {
  if (depth > 3 || typeof data !== 'object' || data === null) return;
  if (Array.isArray(data)) {
    for (const item of data) {
      if (isPost(item)) {
        if (item.id === id) found.push(item);
      } else if (depth < 3 && typeof item === 'object') collect(item, id, found, depth + 1);
    }
    return;
  }
  if (!isRecord(data)) return;
  const record = data;
  if (Array.isArray(record.pages)) collect(record.pages, id, found, depth + 1);
  if (Array.isArray(record.posts)) collect(record.posts, id, found, depth + 1);
  if (isPost(record.post) && record.post.id === id) found.push(record.post);
}

/**
 * Every cached copy of a post wherever it is cached: media lists, pages and single-post queries, and
 * the messenger's chat-mode lists (#10 item 9) — any query whose data is or holds posts.
 */
export function findCachedPosts(queryClient: QueryClient, id: number): Post[] {
  const found: Post[] = [];
  for (const query of queryClient.getQueryCache().getAll()) collect(query.state.data, id, found);
  return found;
}

export function shadowed(post: Post): Post {
  const shadow = shadows.get(post);
  return shadow ? { ...post, ...shadow } : post;
}

/** Applies `patch` (given each cached copy as currently shown) to every cached copy of the post. */
export function updatePostShadow(
  queryClient: QueryClient,
  id: number,
  patch: (shown: Post, original: Post) => PostShadow,
): void {
  for (const post of findCachedPosts(queryClient, id)) {
    shadows.set(post, { ...shadows.get(post), ...patch(shadowed(post), post) });
  }
  versions.set(id, (versions.get(id) ?? 0) + 1);
  for (const listener of listeners.get(id) ?? []) listener();
}

function subscribe(id: number, listener: () => void): () => void {
  let set = listeners.get(id);
  if (!set) {
    set = new Set();
    listeners.set(id, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(id);
  };
}

/** The post as the user should see it: the cached copy with its optimistic overlay. */
export function usePostShadow(post: Post): Post {
  const version = useSyncExternalStore(
    (listener) => subscribe(post.id, listener),
    () => versions.get(post.id) ?? 0,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: version signals a shadow change for this post
  return useMemo(() => shadowed(post), [post, version]);
}
