import type { Post } from '@kadr/contract';
import { useEffect } from 'react';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { useShellUi } from '../../shell/shell-ui-store.ts';
import { useFeedUi } from '../feed-ui-store.ts';

/** Publishes the post on screen for the shell's rotate and delete entries. */
export function useActivePost(post: Post | undefined) {
  const me = useCurrentUser();
  const setActivePost = useFeedUi((s) => s.setActivePost);
  const setOwn = useShellUi((s) => s.setOwnPostOnScreen);
  const setVideo = useShellUi((s) => s.setVideoPostOnScreen);
  useEffect(() => {
    setActivePost(post ?? null);
    setOwn(post !== undefined && me !== null && post.user_id === me.id);
    setVideo(post?.files[0]?.file_type === 'video');
  }, [post, me, setActivePost, setOwn, setVideo]);
  useEffect(
    () => () => {
      setActivePost(null);
      setOwn(false);
      setVideo(false);
    },
    [setActivePost, setOwn, setVideo],
  );
}
