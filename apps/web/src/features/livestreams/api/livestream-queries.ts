import type { LiveStream, LiveStreamGuest } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

/** Spec §4.3: active streams are polled every 30 s and refreshed on the start and end events. */
export const ACTIVE_POLL_MS = 30_000;

export const livestreamKeys = {
  all: ['livestreams'] as const,
  active: () => [...livestreamKeys.all, 'active'] as const,
  stream: (id: number) => [...livestreamKeys.all, 'stream', id] as const,
  userSearch: (q: string) => [...livestreamKeys.all, 'user-search', q] as const,
};

export function useActiveStreams() {
  return useQuery({
    queryKey: livestreamKeys.active(),
    queryFn: ({ signal }) =>
      api.call(livestreamsEndpoints.active, { query: { limit: Limits.activeStreams }, signal }),
    select: (data) => data.streams,
    refetchInterval: ACTIVE_POLL_MS,
  });
}

export function useStream(id: number) {
  return useQuery({
    queryKey: livestreamKeys.stream(id),
    queryFn: ({ signal }) => api.call(livestreamsEndpoints.get, { params: { id }, signal }),
  });
}

export function refreshActive(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: livestreamKeys.active() });
}

/** Writes a change into the cached stream (count, guests) without a refetch. */
export function patchStream(queryClient: QueryClient, id: number, patch: (s: LiveStream) => LiveStream) {
  queryClient.setQueryData<LiveStream>(livestreamKeys.stream(id), (s) => (s ? patch(s) : s));
}

export const withGuest = (s: LiveStream, guest: LiveStreamGuest): LiveStream =>
  s.guests.some((g) => g.user_id === guest.user_id) ? s : { ...s, guests: [...s.guests, guest] };

export const withoutGuest = (s: LiveStream, userId: number): LiveStream => ({
  ...s,
  guests: s.guests.filter((g) => g.user_id !== userId),
});

export function useCreateStream() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => api.call(livestreamsEndpoints.create, { body: { title } }),
    onSuccess: (stream) => {
      queryClient.setQueryData(livestreamKeys.stream(stream.id), stream);
      void refreshActive(queryClient);
    },
  });
}

export function useEndStream(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(livestreamsEndpoints.end, { params: { id } }),
    onSuccess: ({ stream }) => {
      queryClient.setQueryData(livestreamKeys.stream(id), stream);
      void refreshActive(queryClient);
    },
  });
}

export function useAddGuest(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      api.call(livestreamsEndpoints.addGuest, { params: { id }, body: { user_id: userId } }),
    onSuccess: (guest) => patchStream(queryClient, id, (s) => withGuest(s, guest)),
  });
}

export function useRemoveGuest(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      api.call(livestreamsEndpoints.removeGuest, { params: { id, userId } }).then(() => userId),
    // Optimistic: the guest leaves the list at once and comes back if the server refuses.
    onMutate: async (userId) => {
      await queryClient.cancelQueries({ queryKey: livestreamKeys.stream(id) });
      const previous = queryClient.getQueryData<LiveStream>(livestreamKeys.stream(id));
      patchStream(queryClient, id, (s) => withoutGuest(s, userId));
      return { previous };
    },
    onError: (_error, _userId, context) => {
      if (context?.previous) queryClient.setQueryData(livestreamKeys.stream(id), context.previous);
    },
  });
}

/** Guest search: only for a non-empty query (the caller debounces it, spec §5). */
export function useUserSearch(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: livestreamKeys.userSearch(q),
    queryFn: ({ signal }) => api.call(profileEndpoints.search, { query: { q }, signal }),
    enabled: q.length > 0,
    staleTime: 30_000,
  });
}
