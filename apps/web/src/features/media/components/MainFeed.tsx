import { useActivePost } from '../hooks/use-active-post.ts';
import { useMainFeed } from '../hooks/use-main-feed.ts';
import type { FeedBlacklist } from '../lib/feed-filter.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedEnd, FeedState } from './FeedStates.tsx';

export function MainFeed({ openPostId, blacklist }: { openPostId: number | null; blacklist: FeedBlacklist }) {
  const feed = useMainFeed(openPostId);
  useActivePost(feed.state === null ? feed.posts[feed.index] : undefined);
  if (feed.state) return <FeedState kind={feed.state} />;
  return (
    <FeedPager
      posts={feed.posts}
      index={feed.index}
      onIndex={feed.setIndex}
      blacklist={blacklist}
      onRefresh={() => void feed.refresh()}
      refreshing={feed.refreshing}
      end={feed.ended ? <FeedEnd onRefresh={() => void feed.refresh()} /> : undefined}
    />
  );
}
