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
      if (previous && previous.is_following !== follow) {
        queryClient.setQueryData<Profile>(key, {
          ...previous,
          is_following: follow,
          followers_count: Math.max(0, previous.followers_count + (follow ? 1 : -1)),
        });
      }
      return { previous };
    },
    onError: (_error, _follow, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (result) => {
      queryClient.setQueryData<Profile>(key, (current) => current && { ...current, ...result });
    },
  });
}
