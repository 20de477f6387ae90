import type { FollowListResponse, Profile } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { type FollowSide, followListKeys } from './follow-list-keys.ts';
import { profileKeys } from './profile-queries.ts';

export type { FollowSide };
export { followListKeys };

type Pages = InfiniteData<FollowListResponse, number>;

/** A profile's followers or followings, newest follow first, in pages (offset = people already held). */
export function useFollowListQuery(username: string, side: FollowSide) {
  return useInfiniteQuery({
    queryKey: followListKeys.list(username, side),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => {
      const request = {
        params: { username },
        query: { limit: Limits.followListPage, offset: pageParam },
        signal,
      };
      return side === 'followers'
        ? api.call(profileEndpoints.followers, request)
        : api.call(profileEndpoints.following, request);
    },
    getNextPageParam: (last, pages) =>
      last.has_more ? pages.reduce((n, p) => n + p.users.length, 0) : undefined,
  });
}

/** Sets `is_following` of `userId` in every cached follow list. */
export function markFollowing(pages: Pages | undefined, userId: number, follow: boolean): Pages | undefined {
  if (!pages) return pages;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      users: page.users.map((u) => (u.id === userId ? { ...u, is_following: follow } : u)),
    })),
  };
}

/**
 * Follows or unfollows a person from a list: the row's toggle turns at once (back if the call fails);
 * the person's profile and the viewer's own counts are fetched afresh afterwards.
 */
export function useListFollowMutation(person: { id: number; username: string }) {
  const queryClient = useQueryClient();
  const setEverywhere = (follow: boolean) =>
    queryClient.setQueriesData<Pages>({ queryKey: followListKeys.all }, (data) =>
      markFollowing(data, person.id, follow),
    );
  return useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? api.call(profileEndpoints.follow, { params: { username: person.username } })
        : api.call(profileEndpoints.unfollow, { params: { username: person.username } }),
    onMutate: (follow) => setEverywhere(follow),
    onError: (_error, follow) => setEverywhere(!follow),
    onSuccess: (result) => {
      queryClient.setQueryData<Profile>(
        profileKeys.detail(person.username),
        (current) => current && { ...current, ...result },
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
