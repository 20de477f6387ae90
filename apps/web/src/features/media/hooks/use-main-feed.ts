import { ErrorCode } from '@kadr/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api/client.ts';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';
import { flattenPages, useFeedQuery, usePostQuery } from '../api/feed-queries.ts';
import { mediaKeys } from '../api/media-keys.ts';
import type { FeedEmptyKind } from '../components/FeedStates.tsx';
import { useFeedUi } from '../feed-ui-store.ts';
import { filterFeed } from '../lib/feed-filter.ts';
import { restoreIndex, wantsNextPage } from '../lib/feed-index.ts';
import { useMediaMode } from '../modes/media-mode-store.ts';

const readSavedPostId = (): number | null => {
  const raw = Number(local.get(StorageKeys.mediaCurrentPostId));
  return Number.isInteger(raw) && raw > 0 ? raw : null;
};

/**
 * The main feed (spec §4.9): pages of 15, an optional post opened by URL on top, sleep-mode filtering,
 * the remembered position restored when the feed first fills, more pages near the end and while the
 * filtered list is short, and refresh.
 */
export function useMainFeed(openPostId: number | null) {
  const feed = useFeedQuery();
  const single = usePostQuery(openPostId);
  const sleepMode = useMediaMode((s) => s.mode === 'sleep');
  const index = useFeedUi((s) => s.feedIndex);
  const setIndex = useFeedUi((s) => s.setFeedIndex);
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);

  const all = useMemo(() => flattenPages(feed.data), [feed.data]);
  const opened = single.data?.post;
  const posts = useMemo(() => {
    const raw = opened ? [opened, ...all.filter((p) => p.id !== opened.id)] : all;
    return filterFeed(raw, { sleepMode });
  }, [all, opened, sleepMode]);

  // Every page loaded: one more screen after the last post says so (#18 item 8).
  const ended = !feed.isPending && !feed.hasNextPage && !feed.isError && posts.length > 0;
  const waitingForOpened = openPostId !== null && single.isPending;
  const filled = !feed.isPending && !waitingForOpened;

  // First fill: the opened post, else the remembered one; an index past the list resets to 0.
  useEffect(() => {
    if (!filled || posts.length === 0) return;
    if (index === null)
      setIndex(
        opened
          ? 0
          : restoreIndex(
              readSavedPostId(),
              posts.map((p) => p.id),
            ),
      );
    else if (index > posts.length || (index === posts.length && !ended)) setIndex(0);
  }, [filled, posts, index, opened, setIndex, ended]);

  // Switching sleep mode changes the list under the index.
  const seenMode = useRef(sleepMode);
  useEffect(() => {
    if (seenMode.current === sleepMode) return;
    seenMode.current = sleepMode;
    setIndex(0);
  }, [sleepMode, setIndex]);

  const active = index === null ? undefined : posts[index];
  useEffect(() => {
    if (active) local.set(StorageKeys.mediaCurrentPostId, String(active.id));
  }, [active]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  useEffect(() => {
    if (
      filled &&
      wantsNextPage({
        activeIndex: index ?? 0,
        filteredCount: posts.length,
        totalCount: all.length,
        hasMore: hasNextPage,
        fetching: isFetchingNextPage,
      })
    )
      void fetchNextPage();
  }, [filled, index, posts.length, all.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await queryClient.resetQueries({ queryKey: mediaKeys.feed() });
      setIndex(0);
    } finally {
      setRefreshing(false);
    }
  }, [queryClient, setIndex]);

  let state: FeedEmptyKind | null = null;
  if (openPostId !== null && single.isError)
    // A private account's post for someone who does not follow it: the profile's own words, not «not found».
    state =
      single.error instanceof ApiError && single.error.code === ErrorCode.privateAccount
        ? 'privateAccount'
        : 'notFound';
  else if (!filled) state = 'loading';
  else if (posts.length === 0) {
    if (hasNextPage || feed.isFetching) state = 'tuning';
    else state = sleepMode ? 'sleepEmpty' : 'empty';
  }

  return { posts, index: index ?? 0, setIndex, refresh, refreshing, state, ended };
}
