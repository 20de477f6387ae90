import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ru } from '../../../shared/i18n/ru.ts';
import { useChatMediaPosts } from '../../messenger/hooks/use-chat-media.ts';
import { useActivePost } from '../hooks/use-active-post.ts';
import { filterFeed } from '../lib/feed-filter.ts';
import { clampIndex } from '../lib/feed-index.ts';
import type { MediaRouteState } from '../lib/media-route-state.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedState } from './FeedStates.tsx';
import { ModeHeader } from './ModeHeader.tsx';

type ChatMode = Extract<MediaRouteState, { from: 'chat' }>;

/** Chat mode (spec §2.4): the posts linked in a chat, newest first, under 'Чат: <name>' / 'Группа: <name>'. */
export function ChatFeed({ mode, blacklist }: { mode: ChatMode; blacklist: ReadonlySet<string> }) {
  const navigate = useNavigate();
  const query = useChatMediaPosts({
    fromChat: true,
    chatId: mode.chatId,
    chatType: mode.chatType,
    chatName: mode.chatName,
  });
  const posts = filterFeed(query.data ?? [], { sleepMode: false });
  const [index, setIndex] = useState(0);
  const at = clampIndex(index, posts.length);
  useActivePost(posts[at]);
  const title =
    mode.chatType === 'group' ? ru.feed.groupHeader(mode.chatName) : ru.feed.chatHeader(mode.chatName);

  return (
    <>
      <ModeHeader title={title} backLabel={ru.feed.backToChat} onBack={() => navigate(-1)} />
      {posts.length > 0 ? (
        <FeedPager posts={posts} index={at} onIndex={setIndex} blacklist={blacklist} />
      ) : (
        <FeedState kind={query.isPending && query.fetchStatus !== 'idle' ? 'loading' : 'empty'} />
      )}
    </>
  );
}
