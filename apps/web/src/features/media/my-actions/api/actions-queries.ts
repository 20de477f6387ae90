import { Limits } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../../shared/api/client.ts';
import { loadedCount } from '../../api/feed-queries.ts';
import { type ActionsTab, mediaKeys } from '../../api/media-keys.ts';

const tabEndpoint = {
  liked: mediaEndpoints.liked,
  reposted: mediaEndpoints.reposted,
  saved: mediaEndpoints.saved,
} as const;

/** 'Мои действия': 9 posts per page (spec §9). */
export function useActionsQuery(tab: ActionsTab) {
  return useInfiniteQuery({
    queryKey: mediaKeys.actions(tab),
    queryFn: ({ pageParam, signal }) =>
      api.call(tabEndpoint[tab], {
        query: { offset: pageParam, limit: Limits.myActionsPage },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.has_more ? loadedCount(pages) : undefined),
  });
}

/** More is loaded once the list is scrolled within 100 px of its bottom. */
export function nearBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= 100;
}
