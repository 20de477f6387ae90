import type { Profile } from '@kadr/contract';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { StaleTime } from '../../../shared/api/query-client.ts';

export const profileKeys = {
  all: ['profile'] as const,
  detail: (username: string) => [...profileKeys.all, username] as const,
};

export function useProfileQuery(username: string) {
  return useQuery({
    queryKey: profileKeys.detail(username),
    queryFn: ({ signal }) => api.call(profileEndpoints.get, { params: { username }, signal }),
    staleTime: StaleTime.profile,
  });
}

/** Follow or unfollow with an optimistic counter; the previous profile comes back if the call fails. */
export function useFollowMutation(username: string) {
  const queryClient = useQueryClient();
  const key = profileKeys.detail(username);
  return useMutation({
    mutationFn: (follow: boolean) =>
      follow
        ? api.call(profileEndpoints.follow, { params: { username } })
        : api.call(profileEndpoints.unfollow, { params: { username } }),
    onMutate: async (follow) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Profile>(key);
      if (previous && follow && previous.is_private && !previous.is_following) {
        // A private account: the follow becomes a request; nothing is counted yet.
        queryClient.setQueryData<Profile>(key, { ...previous, is_requested: true });
      } else if (previous && !follow && previous.is_requested) {
        queryClient.setQueryData<Profile>(key, { ...previous, is_requested: false });
      } else if (previous && previous.is_following !== follow) {
        queryClient.setQueryData<Profile>(key, {
          ...previous,
          is_following: follow,
          followers_count: Math.max(0, previous.followers_count + (follow ? 1 : -1)),
          // Unfollowing a private account closes it again.
          can_see_content: !previous.is_private || follow,
        });
      }
      return { previous };
    },
    onError: (_error, _follow, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (result) => {
      queryClient.setQueryData<Profile>(
        key,
        (current) =>
          current && {
            ...current,
            ...result,
            can_see_content: !current.is_private || result.is_following,
          },
      );
    },
  });
}
