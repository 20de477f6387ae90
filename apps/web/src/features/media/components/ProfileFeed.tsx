import type { Post } from '@kadr/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useUserPostsQuery } from '../api/feed-queries.ts';
import { useActivePost } from '../hooks/use-active-post.ts';
import { type FeedBlacklist, filterFeed } from '../lib/feed-filter.ts';
import { clampIndex } from '../lib/feed-index.ts';
import { mediaStrings } from '../strings.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedState } from './FeedStates.tsx';
import { ModeHeader } from './ModeHeader.tsx';

interface Props {
  username: string;
  initialPosts?: Post[];
  postIndex: number;
  blacklist: FeedBlacklist;
}

/** Profile mode (spec §2.4): the user's posts, 'Профиль: @<username>', back to the profile. */
export function ProfileFeed({ username, initialPosts, postIndex, blacklist }: Props) {
  const navigate = useNavigate();
  const query = useUserPostsQuery(username, initialPosts);
  const posts = filterFeed(query.data?.posts ?? [], { sleepMode: false });
  const [index, setIndex] = useState(postIndex);
  const at = clampIndex(index, posts.length);
  useActivePost(posts[at]);

  return (
    <>
      <ModeHeader
        title={mediaStrings.profileHeader(username)}
        backLabel={mediaStrings.backToProfile}
        onBack={() => navigate(`/${username}`, { state: { fromMedia: true } })}
      />
      {posts.length > 0 ? (
        <FeedPager posts={posts} index={at} onIndex={setIndex} blacklist={blacklist} />
      ) : (
        <FeedState kind={query.isPending ? 'loading' : 'empty'} />
      )}
    </>
  );
}
