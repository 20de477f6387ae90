import type { NotificationsResponse } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { notificationsEndpoints } from '@kadr/contract/notifications/endpoints';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

export const notificationsKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationsKeys.all, 'list'] as const,
  unread: () => [...notificationsKeys.all, 'unread'] as const,
};

type Pages = InfiniteData<NotificationsResponse, number>;

/** The badge: `unread_total`, kept current by the socket and by reads (no page is loaded for it). */
export function useUnreadTotal(): number {
  const query = useQuery({
    queryKey: notificationsKeys.unread(),
    queryFn: async ({ signal }) =>
      (await api.call(notificationsEndpoints.list, { query: { limit: 1 }, signal })).unread_total,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return query.data ?? 0;
}

/** The panel's pages of 20 (spec §9), newest first; each page refreshes the badge. */
export function useNotificationsQuery() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationsKeys.list(),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) => {
      const page = await api.call(notificationsEndpoints.list, {
        query: { limit: Limits.notificationsPage, offset: pageParam },
        signal,
      });
      if (pageParam === 0) queryClient.setQueryData(notificationsKeys.unread(), page.unread_total);
      return page;
    },
    getNextPageParam: (last, pages) =>
      last.has_more
        ? pages.reduce((n, p) => n + p.groups.reduce((m, g) => m + g.items.length, 0), 0)
        : undefined,
  });
}

/** Sets `is_read` on the cached items `ids` (all when null) and the counts that go with it. */
function markCached(queryClient: QueryClient, ids: number[] | null) {
  let marked = 0;
  queryClient.setQueryData<Pages>(notificationsKeys.list(), (data) => {
    if (!data) return data;
    const pages = data.pages.map((page) => ({
      ...page,
      groups: page.groups.map((group) => {
        let groupMarked = 0;
        const items = group.items.map((item) => {
          if (item.is_read || (ids && !ids.includes(item.id))) return item;
          groupMarked += 1;
          return { ...item, is_read: true };
        });
        marked += groupMarked;
        const unread_count = ids === null ? 0 : Math.max(0, group.unread_count - groupMarked);
        return { ...group, items, unread_count };
      }),
    }));
    return { ...data, pages };
  });
  queryClient.setQueryData<number>(notificationsKeys.unread(), (n) =>
    ids === null ? 0 : Math.max(0, (n ?? 0) - marked),
  );
}

interface Snapshot {
  list: Pages | undefined;
  unread: number | undefined;
}

function optimistic(queryClient: QueryClient) {
  return {
    async onMutate(ids: number[] | null): Promise<Snapshot> {
      await queryClient.cancelQueries({ queryKey: notificationsKeys.all });
      const snapshot = {
        list: queryClient.getQueryData<Pages>(notificationsKeys.list()),
        unread: queryClient.getQueryData<number>(notificationsKeys.unread()),
      };
      markCached(queryClient, ids);
      return snapshot;
    },
    onError(_error: unknown, _ids: unknown, snapshot: Snapshot | undefined) {
      if (!snapshot) return;
      queryClient.setQueryData(notificationsKeys.list(), snapshot.list);
      queryClient.setQueryData(notificationsKeys.unread(), snapshot.unread);
    },
  };
}

/** Spec §4.6: marking one as read is optimistic, rolled back when the server refuses. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const { onMutate, onError } = optimistic(queryClient);
  return useMutation({
    mutationFn: (id: number) => api.call(notificationsEndpoints.read, { params: { id } }),
    onMutate: (id) => onMutate([id]),
    onError,
    onSuccess: (answer) => queryClient.setQueryData(notificationsKeys.unread(), answer.unread_total),
  });
}

/** Spec §4.6: 'read all' is optimistic, rolled back when the server refuses. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  const { onMutate, onError } = optimistic(queryClient);
  return useMutation({
    mutationFn: () => api.call(notificationsEndpoints.readAll),
    onMutate: () => onMutate(null),
    onError,
    onSuccess: (answer) => queryClient.setQueryData(notificationsKeys.unread(), answer.unread_total),
  });
}
