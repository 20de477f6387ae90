import { type BlacklistResponse, paths } from '@kadr/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, isApiError } from '../../../shared/api/client.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { mediaKeys } from '../../feed/api/media-keys.ts';

const empty: BlacklistResponse = { blacklist: [] };

/** The caller's hidden tags; never requested without a token, and a 401 counts as an empty list. */
export function useBlacklistQuery() {
  const hasToken = useAuthStore((s) => s.auth.status !== 'guest');
  return useQuery({
    queryKey: mediaKeys.blacklist(),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<BlacklistResponse>(paths.media.blacklist, { signal });
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

/** Hide (`hidden: true`) or unhide a tag; the answer is the whole new list. */
export function useBlacklistMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tag, hidden }: { tag: string; hidden: boolean }) =>
      hidden
        ? api.post<BlacklistResponse>(paths.media.blacklist, { tag })
        : api.delete<BlacklistResponse>(paths.media.blacklistTag(tag)),
    onSuccess: (answer) => queryClient.setQueryData(mediaKeys.blacklist(), answer),
  });
}
