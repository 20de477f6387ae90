import type { SearchKind, SearchScope } from '@kadr/contract';
import { searchEndpoints } from '@kadr/contract/search/endpoints';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

/** Query keys of the search feature. */
export const searchKeys = {
  root: ['search'] as const,
  media: (q: string, kind: SearchKind, sleep: boolean) => ['search', 'media', q, kind, sleep] as const,
  messenger: (q: string) => ['search', 'messenger', q] as const,
  tag: (tag: string, sleep: boolean) => ['search', 'tag', tag, sleep] as const,
  recent: (scope: SearchScope) => ['search', 'recent', scope] as const,
};

/** Results stay fresh for half a minute: typing back to an earlier query answers from memory. */
const SEARCH_STALE_MS = 30_000;

export function useMediaSearch(q: string, kind: SearchKind, sleep: boolean) {
  return useQuery({
    queryKey: searchKeys.media(q, kind, sleep),
    queryFn: ({ signal }) =>
      api.call(searchEndpoints.media, { query: { q, kind, limit: 20, ...(sleep ? { sleep } : {}) }, signal }),
    enabled: q !== '',
    staleTime: SEARCH_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/**
 * The messenger's search (people, public groups and channels, messages) as query options: the messenger's and
 * the groups' result lists read the one answer, each with its own `select`.
 */
export function messengerSearchOptions(q: string) {
  return {
    queryKey: searchKeys.messenger(q),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.call(searchEndpoints.messenger, { query: { q, limit: 20 }, signal }),
    enabled: q !== '',
    staleTime: SEARCH_STALE_MS,
  };
}

export function useTagPosts(tag: string, sleep: boolean) {
  return useQuery({
    queryKey: searchKeys.tag(tag, sleep),
    queryFn: ({ signal }) =>
      api.call(searchEndpoints.tag, {
        params: { tag },
        query: { limit: 30, ...(sleep ? { sleep } : {}) },
        signal,
      }),
    staleTime: SEARCH_STALE_MS,
  });
}

export function useRecentSearches(scope: SearchScope) {
  return useQuery({
    queryKey: searchKeys.recent(scope),
    queryFn: ({ signal }) => api.call(searchEndpoints.recent, { query: { scope }, signal }),
  });
}

export function useRememberSearch(scope: SearchScope) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (query: string) => api.call(searchEndpoints.remember, { body: { scope, query } }),
    onSuccess: (data) => client.setQueryData(searchKeys.recent(scope), data),
  });
}

export function useForgetSearches(scope: SearchScope) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(searchEndpoints.forget, { query: { scope } }),
    onMutate: () => {
      const previous = client.getQueryData(searchKeys.recent(scope));
      client.setQueryData(searchKeys.recent(scope), { recent: [] });
      return { previous };
    },
    onError: (_err, _vars, context) => client.setQueryData(searchKeys.recent(scope), context?.previous),
  });
}
