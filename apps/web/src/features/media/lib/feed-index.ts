import { Limits } from '@kadr/contract/browser';

/** Feed paging of spec §4.9 and §9. */
export const FeedPaging = {
  page: Limits.feedPage,
  mediaList: Limits.mediaListPage,
  preloadThreshold: Limits.feedPreloadThreshold,
  autoLoadBelowFiltered: Limits.feedMinFiltered,
  autoLoadBelowTotal: Limits.feedMaxAutoLoad,
} as const;

export function clampIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(Math.max(index, 0), count - 1);
}

/** Where the feed opens when it first fills: the remembered post, or the top. */
export function restoreIndex(savedPostId: number | null, postIds: readonly number[]): number {
  if (savedPostId === null) return 0;
  const index = postIds.indexOf(savedPostId);
  return index < 0 || index >= postIds.length ? 0 : index;
}

/** More posts are requested once the active one is within 5 of the end. */
export function nearEnd(activeIndex: number, filteredCount: number): boolean {
  return filteredCount - 1 - activeIndex < FeedPaging.preloadThreshold;
}

/** Pages keep loading on their own while fewer than 15 posts pass the filters and under 100 are held. */
export function shouldAutoLoad(filteredCount: number, totalCount: number): boolean {
  return filteredCount < FeedPaging.autoLoadBelowFiltered && totalCount < FeedPaging.autoLoadBelowTotal;
}

export function wantsNextPage(input: {
  activeIndex: number;
  filteredCount: number;
  totalCount: number;
  hasMore: boolean;
  fetching: boolean;
}): boolean {
  if (!input.hasMore || input.fetching) return false;
  return (
    shouldAutoLoad(input.filteredCount, input.totalCount) || nearEnd(input.activeIndex, input.filteredCount)
  );
}
