import { useActivePost } from '../hooks/use-active-post.ts';
import { useMainFeed } from '../hooks/use-main-feed.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedState } from './FeedStates.tsx';

export function MainFeed({
  openPostId,
  blacklist,
}: {
  openPostId: number | null;
  blacklist: ReadonlySet<string>;
}) {
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
    />
  );
}
