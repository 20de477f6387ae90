import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { useShellUi } from '../../shell/shell-ui-store.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { useMediaCommands } from '../hooks/use-media-commands.ts';
import { parseMediaRouteState } from '../lib/media-route-state.ts';
import { useFeedBlacklist } from '../modes/api/blacklist-queries.ts';
import { SleepModeChip } from '../modes/components/SleepModeChip.tsx';
import { ActionsFeed } from './ActionsFeed.tsx';
import { ChatFeed } from './ChatFeed.tsx';
import { FeedPanels } from './FeedPanels.tsx';
import { MainFeed } from './MainFeed.tsx';
import styles from './MediaScreen.module.css';
import { ProfileFeed } from './ProfileFeed.tsx';

const parsePostId = (raw: string | undefined): number | null => {
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
};

/** /media, /media/post/{postId}, /media/{postId}: the feed in the mode its navigation state asks for. */
export function MediaScreen() {
  const { postId } = useParams();
  const location = useLocation();
  const mode = parseMediaRouteState(location.state);
  const blacklist = useFeedBlacklist();
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  useMediaCommands();
  // Hiding the interface hides the shell's buttons too (navigation, context buttons).
  const setNavHidden = useShellUi((s) => s.setNavHidden);
  useEffect(() => {
    if (!interfaceHidden) return;
    setNavHidden(true);
    return () => setNavHidden(false);
  }, [interfaceHidden, setNavHidden]);

  let body: React.ReactNode;
  if (mode?.from === 'profile')
    body = (
      <ProfileFeed
        key={mode.username}
        username={mode.username}
        initialPosts={mode.posts}
        postIndex={mode.postIndex}
        blacklist={blacklist}
      />
    );
  else if (mode?.from === 'actions')
    body = (
      <ActionsFeed
        key={`${mode.tab}:${mode.postIndex}`}
        tab={mode.tab}
        postIndex={mode.postIndex}
        blacklist={blacklist}
      />
    );
  else if (mode?.from === 'chat')
    body = (
      <ChatFeed
        key={`${mode.chatType}:${mode.chatId}:${postId ?? ''}`}
        mode={mode}
        blacklist={blacklist}
        openPostId={parsePostId(postId)}
      />
    );
  else
    body = (
      <>
        <MainFeed openPostId={parsePostId(postId)} blacklist={blacklist} />
        <SleepModeChip />
      </>
    );

  return (
    <section className={styles.screen} data-interface-hidden={interfaceHidden}>
      {body}
      <FeedPanels />
    </section>
  );
}
