import type { FollowRequestsResponse } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { followListKeys } from './follow-list-keys.ts';
import { profileKeys } from './profile-queries.ts';

export const followRequestKeys = { all: ['follow-requests'] as const };

/**
 * Follow requests waiting for the signed-in owner of a private account (the first page, newest first);
 * kept current by the socket (`follow-requests-changed`).
 */
export function useFollowRequests() {
  return useQuery({
    queryKey: followRequestKeys.all,
    queryFn: ({ signal }) =>
      api.call(profileEndpoints.followRequests, { query: { limit: Limits.followListPage }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** How many requests wait (on the bell, as news until answered). */
export function usePendingFollowRequests(): number {
  return useFollowRequests().data?.users?.length ?? 0;
}

/** Accepts or declines `username`'s request; the row leaves the list at once (back if the call fails). */
export function useAnswerFollowRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, accept }: { username: string; accept: boolean }) =>
      accept
        ? api.call(profileEndpoints.acceptFollowRequest, { params: { username } })
        : api.call(profileEndpoints.declineFollowRequest, { params: { username } }),
    onMutate: async ({ username }) => {
      await queryClient.cancelQueries({ queryKey: followRequestKeys.all });
      const previous = queryClient.getQueryData<FollowRequestsResponse>(followRequestKeys.all);
      if (previous)
        queryClient.setQueryData<FollowRequestsResponse>(followRequestKeys.all, {
          ...previous,
          users: previous.users.filter((u) => u.username !== username),
        });
      return { previous };
    },
    onError: (_error, _answer, context) => {
      if (context?.previous) queryClient.setQueryData(followRequestKeys.all, context.previous);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: followRequestKeys.all });
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
      void queryClient.invalidateQueries({ queryKey: followListKeys.all });
    },
  });
}
