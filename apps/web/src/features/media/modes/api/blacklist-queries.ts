import type { BlacklistResponse } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, isApiError } from '../../../../shared/api/client.ts';
import { useAuthStore } from '../../../auth/auth-store.ts';
import { mediaKeys } from '../../api/media-keys.ts';

const empty: BlacklistResponse = { blacklist: [] };

/** The caller's hidden tags; never requested without a token, and a 401 counts as an empty list. */
export function useBlacklistQuery() {
  const hasToken = useAuthStore((s) => s.auth.status !== 'guest');
  return useQuery({
    queryKey: mediaKeys.blacklist(),
    queryFn: async ({ signal }) => {
      try {
        return await api.call(mediaEndpoints.blacklist, { signal });
      } catch (error) {
        if (isApiError(error) && error.status === 401) return empty;
        throw error;
      }
    },
    enabled: hasToken,
    staleTime: 5 * 60_000,
  });
}

export function useBlacklistTags(): ReadonlySet<string> {
  const tags = useBlacklistQuery().data?.blacklist;
  return useMemo(() => new Set(tags?.map((entry) => entry.tag) ?? []), [tags]);
}

/**
 * Hide (`hidden: true`) or unhide a tag. The list changes at once (posts get or lose their overlay while
 * the request runs), rolls back on failure, and the server's answer (the whole new list) wins.
 */
export function useBlacklistMutation() {
  const queryClient = useQueryClient();
  const key = mediaKeys.blacklist();
  return useMutation({
    mutationFn: ({ tag, hidden }: { tag: string; hidden: boolean }) =>
      hidden
        ? api.call(mediaEndpoints.blacklistAdd, { body: { tag } })
        : api.call(mediaEndpoints.blacklistRemove, { params: { tag } }),
    onMutate: async ({ tag, hidden }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<BlacklistResponse>(key);
      const others = (previous?.blacklist ?? []).filter((entry) => entry.tag !== tag);
      queryClient.setQueryData<BlacklistResponse>(key, { blacklist: hidden ? [...others, { tag }] : others });
      return { previous };
    },
    onError: (_error, _input, context) => queryClient.setQueryData(key, context?.previous ?? empty),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
}

/** The hidden tags once loaded (null while unknown), for deciding which feed posts to cover. */
export function useFeedBlacklist(): ReadonlySet<string> | null {
  const tags = useBlacklistQuery().data?.blacklist;
  return useMemo(() => (tags ? new Set(tags.map((entry) => entry.tag)) : null), [tags]);
}
