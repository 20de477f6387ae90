import type { Post } from '@kadr/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { mediaKeys } from './media-keys.ts';

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

type PostsPage = { posts: Post[] };
type CachedMedia = InfiniteData<PostsPage> | PostsPage | { post: Post } | undefined;

/** Every cached copy of a post, in any media list, page or single-post query. */
export function findCachedPosts(queryClient: QueryClient, id: number): Post[] {
  const found: Post[] = [];
  for (const [, data] of queryClient.getQueriesData<CachedMedia>({ queryKey: mediaKeys.all })) {
    if (!data) continue;
    if ('pages' in data) {
      for (const page of data.pages) for (const post of page.posts) if (post.id === id) found.push(post);
    } else if ('posts' in data) {
      for (const post of data.posts) if (post.id === id) found.push(post);
    } else if ('post' in data && data.post.id === id) {
      found.push(data.post);
    }
  }
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
