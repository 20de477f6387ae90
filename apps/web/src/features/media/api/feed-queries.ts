import type { FeedResponse, Post } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { type InfiniteData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../../../shared/api/client.ts';
import { FeedPaging } from '../lib/feed-index.ts';
import { mediaKeys } from './media-keys.ts';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * One feed page. A failure is logged as 'Failed to load posts: <status>' and yields nothing (spec §8);
 * an aborted request stays silent.
 */
export async function fetchFeedPage(offset: number, signal?: AbortSignal): Promise<FeedResponse> {
  try {
    const answer: FeedResponse | Post[] = await api.call(mediaEndpoints.feed, {
      query: { offset, limit: FeedPaging.page },
      signal,
    });
    // The spec allows a bare array; then a full page means there may be more.
    if (Array.isArray(answer)) return { posts: answer, has_more: answer.length === FeedPaging.page };
    if (Array.isArray(answer?.posts)) return answer;
    console.error('Failed to load posts: 200');
    return { posts: [], has_more: false };
  } catch (error) {
    if (isAbort(error) || signal?.aborted) throw error;
    console.error(`Failed to load posts: ${isApiError(error) ? error.status : 0}`);
    return { posts: [], has_more: false };
  }
}

export const loadedCount = (pages: readonly { posts: readonly Post[] }[]) =>
  pages.reduce((sum, page) => sum + page.posts.length, 0);

/** The posts of all pages, each id once (paging by offset can repeat a post when new ones arrive). */
export function flattenPages(data: InfiniteData<{ posts: Post[] }> | undefined): Post[] {
  if (!data) return [];
  const seen = new Set<number>();
  const posts: Post[] = [];
  for (const page of data.pages) {
    for (const post of page.posts) {
      if (seen.has(post.id)) continue;
      seen.add(post.id);
      posts.push(post);
    }
  }
  return posts;
}

export function useFeedQuery() {
  return useInfiniteQuery({
    queryKey: mediaKeys.feed(),
    queryFn: ({ pageParam, signal }) => fetchFeedPage(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.has_more ? loadedCount(pages) : undefined),
    staleTime: 60_000,
  });
}

export function usePostQuery(id: number | null) {
  return useQuery({
    queryKey: mediaKeys.post(id ?? 0),
    queryFn: ({ signal }) => api.call(mediaEndpoints.post, { params: { id: id ?? 0 }, signal }),
    enabled: id !== null,
  });
}

/** A user's posts for the profile grid and the feed's profile mode (spec §9: 50). */
export function useUserPostsQuery(username: string | null, initialPosts?: Post[]) {
  return useQuery({
    // Posts handed over in navigation state show at once (and take likes) until the fresh list arrives.
    initialData: initialPosts ? { posts: initialPosts, has_more: false } : undefined,
    initialDataUpdatedAt: 0,
    queryKey: mediaKeys.user(username ?? ''),
    queryFn: ({ signal }) =>
      api.call(mediaEndpoints.userPosts, {
        params: { username: username ?? '' },
        query: { limit: FeedPaging.mediaList },
        signal,
      }),
    enabled: username !== null && username !== '',
  });
}
