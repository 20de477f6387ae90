import type { Post } from '@kadr/contract';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePostActions } from '../api/post-actions.ts';
import { usePostShadow } from '../api/post-shadow.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import type { RegisterGestureTarget } from '../hooks/gesture-target.ts';
import { classifyCarouselSwipe } from '../lib/gestures.ts';
import type { PreloadPolicy, PreloadState } from '../lib/preload.ts';
import { TapGestures } from '../lib/tap-gestures.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';
import { FilteredOverlay } from './FilteredOverlay.tsx';
import { HeartBurst } from './HeartBurst.tsx';
import { ImageCarousel } from './ImageCarousel.tsx';
import { PostInfo } from './PostInfo.tsx';
import { VideoPlayer } from './VideoPlayer.tsx';

interface Props {
  post: Post;
  preload: PreloadState;
  policy: PreloadPolicy;
  hidden: boolean;
  register: RegisterGestureTarget;
  isDesktop: boolean;
}

/**
 * One full-screen post: media, gestures (tap, double tap, hold, carousel swipe), info and actions. Memoised:
 * the pager renders on every move of a drag and on each answer of the feed's queries, and rendered every
 * mounted post each time (three times over on the first load of /media).
 */
export const FeedPost = memo(function FeedPost({
  post: cached,
  preload,
  policy,
  hidden,
  register,
  isDesktop,
}: Props) {
  const post = usePostShadow(cached);
  const act = usePostActions();
  const interfaceHidden = useFeedUi((s) => s.interfaceHidden);
  const rotation = useFeedUi((s) => s.rotation[cached.id] ?? 0);
  const muted = useFeedUi((s) => s.muted);
  const setMuted = useFeedUi((s) => s.setMuted);
  const active = preload === 'active';
  const isVideo = post.files[0]?.file_type === 'video';

  const [paused, setPaused] = useState(false);
  const [fast, setFast] = useState(false);
  const [hearts, setHearts] = useState<number[]>([]);
  const [slide, setSlide] = useState(0);
  const [dragX, setDragX] = useState(0);

  useEffect(() => {
    if (!active) {
      setPaused(false);
      setFast(false);
    }
  }, [active]);

  const latest = useRef({ cached, isVideo, slide, count: post.files.length });
  latest.current = { cached, isVideo, slide, count: post.files.length };

  const taps = useMemo(
    () =>
      new TapGestures({
        onTap: () => {
          // The first tap after 'Скрыть интерфейс' brings the interface back (and does nothing else).
          const ui = useFeedUi.getState();
          if (ui.interfaceHidden) {
            ui.setInterfaceHidden(false);
            return;
          }
          if (latest.current.isVideo) setPaused((p) => !p);
        },
        onDoubleTap: () => {
          act('like', latest.current.cached, true);
          setHearts((h) => [...h.slice(-2), Date.now()]);
        },
        onHoldStart: () => setFast(true),
        onHoldEnd: () => setFast(false),
      }),
    [act],
  );
  useEffect(() => () => taps.dispose(), [taps]);

  useEffect(() => {
    if (!active || hidden) return;
    return register({
      down: () => taps.down(),
      cancel: () => taps.cancel(),
      up: (now) => taps.up(now),
      dragX: (dx) => {
        if (latest.current.count > 1) setDragX(dx);
      },
      endX: (dx) => {
        setDragX(0);
        const { slide: at, count } = latest.current;
        const next = Math.min(Math.max(at + classifyCarouselSwipe(dx), 0), count - 1);
        setSlide(next);
      },
    });
  }, [active, hidden, register, taps]);

  const onAutoplayMuted = useCallback(() => setMuted(true), [setMuted]);
  const alt = post.ai_description || post.caption || mediaStrings.post(post.user.username);
  const first = post.files[0];

  return (
    <article
      className={styles.post}
      aria-label={mediaStrings.post(post.user.username)}
      aria-current={active ? 'true' : undefined}
      data-post-id={post.id}
    >
      {hidden ? (
        <FilteredOverlay postId={post.id} />
      ) : (
        <div className={styles.stage}>
          {isVideo && first ? (
            <VideoPlayer
              file={first}
              alt={alt}
              preload={preload}
              mode={policy.mode}
              playing={active && !paused}
              rate={fast ? 2 : 1}
              muted={muted}
              rotation={rotation}
              onAutoplayMuted={onAutoplayMuted}
            />
          ) : (
            <ImageCarousel
              files={post.files}
              alt={alt}
              index={slide}
              onIndex={setSlide}
              dragX={dragX}
              preload={preload}
            />
          )}
          {hearts.map((at) => (
            <HeartBurst key={at} onDone={() => setHearts((h) => h.filter((x) => x !== at))} />
          ))}
          {isVideo && paused ? (
            <span className={styles.pausedBadge} role="status">
              {mediaStrings.paused}
            </span>
          ) : null}
          {fast ? (
            <span className={styles.fastBadge} role="status">
              {mediaStrings.fast}
            </span>
          ) : null}
        </div>
      )}
      {interfaceHidden || hidden ? null : (
        <PostInfo
          post={post}
          onAction={(action, desired) => act(action, cached, desired)}
          showMute={isVideo && (isDesktop || muted)}
          muted={muted}
          onToggleMute={() => setMuted(!muted)}
        />
      )}
    </article>
  );
});
