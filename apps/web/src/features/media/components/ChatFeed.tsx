import { useState } from 'react';
import { useGoBack } from '../../../shared/lib/go-back.ts';
import { useChatMediaPosts } from '../../messenger/hooks/use-chat-media.ts';
import { usePostQuery } from '../api/feed-queries.ts';
import { useActivePost } from '../hooks/use-active-post.ts';
import { type FeedBlacklist, filterFeed } from '../lib/feed-filter.ts';
import { clampIndex } from '../lib/feed-index.ts';
import type { MediaRouteState } from '../lib/media-route-state.ts';
import { mediaStrings } from '../strings.ts';
import { FeedPager } from './FeedPager.tsx';
import { FeedState } from './FeedStates.tsx';
import { ModeHeader } from './ModeHeader.tsx';

type ChatMode = Extract<MediaRouteState, { from: 'chat' }>;

/** Chat mode (spec §2.4): the posts linked in a chat, newest first, under 'Чат: <name>' / 'Группа: <name>'. */
export function ChatFeed({
  mode,
  blacklist,
  openPostId = null,
}: {
  mode: ChatMode;
  blacklist: FeedBlacklist;
  /** A post card tapped in the chat: the feed opens on it (it leads the list if the scan missed it). */
  openPostId?: number | null;
}) {
  const goBack = useGoBack();
  const query = useChatMediaPosts({
    fromChat: true,
    chatId: mode.chatId,
    chatType: mode.chatType,
    chatName: mode.chatName,
  });
  const opened = usePostQuery(openPostId);
  const scanned = query.data ?? [];
  const openedPost = opened.data?.post;
  const all = openedPost && !scanned.some((p) => p.id === openedPost.id) ? [openedPost, ...scanned] : scanned;
  const posts = filterFeed(all, { sleepMode: false });
  const [picked, setIndex] = useState<number | null>(null);
  const openAt = openPostId === null ? -1 : posts.findIndex((p) => p.id === openPostId);
  const index = picked ?? Math.max(0, openAt);
  const at = clampIndex(index, posts.length);
  useActivePost(posts[at]);
  const title =
    mode.chatType === 'group'
      ? mediaStrings.groupHeader(mode.chatName)
      : mediaStrings.chatHeader(mode.chatName);

  return (
    <>
      <ModeHeader title={title} backLabel={mediaStrings.backToChat} onBack={() => goBack('/messenger')} />
      {posts.length > 0 ? (
        <FeedPager posts={posts} index={at} onIndex={setIndex} blacklist={blacklist} />
      ) : (
        <FeedState
          kind={
            (query.isPending && query.fetchStatus !== 'idle') || (opened.isPending && openPostId !== null)
              ? 'loading'
              : 'empty'
          }
        />
      )}
    </>
  );
}
