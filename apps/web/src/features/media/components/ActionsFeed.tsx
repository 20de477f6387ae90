import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { flattenPages } from '../api/feed-queries.ts';
import type { ActionsTab } from '../api/media-keys.ts';
import { useActivePost } from '../hooks/use-active-post.ts';
import { type FeedBlacklist, filterFeed } from '../lib/feed-filter.ts';
import { clampIndex, nearEnd } from '../lib/feed-index.ts';
import { useActionsQuery } from '../my-actions/api/actions-queries.ts';
import { mediaStrings } from '../strings.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedState } from './FeedStates.tsx';
import { ModeHeader } from './ModeHeader.tsx';

interface Props {
  tab: ActionsTab;
  postIndex: number;
  blacklist: FeedBlacklist;
}

/** Actions mode: the liked, reposted or saved list; back-to-feed returns to the saved feed position. */
export function ActionsFeed({ tab, postIndex, blacklist }: Props) {
  const navigate = useNavigate();
  const query = useActionsQuery(tab);
  const posts = filterFeed(flattenPages(query.data), { sleepMode: false });
  const [index, setIndex] = useState(postIndex);
  const at = clampIndex(index, posts.length);
  useActivePost(posts[at]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (posts.length > 0 && nearEnd(at, posts.length) && hasNextPage && !isFetchingNextPage)
      void fetchNextPage();
  }, [at, posts.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <ModeHeader
        title={mediaStrings.actionsHeader(mediaStrings.myActions.tabs[tab])}
        backLabel={mediaStrings.backToFeed}
        onBack={() => navigate('/media')}
      />
      {posts.length > 0 ? (
        <FeedPager posts={posts} index={at} onIndex={setIndex} blacklist={blacklist} />
      ) : (
        <FeedState kind={query.isPending ? 'loading' : 'empty'} />
      )}
    </>
  );
}
