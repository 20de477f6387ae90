import type { Post } from '@kadr/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { useFeedUi } from '../feed-ui-store.ts';
import { useFeedPointer } from '../hooks/use-feed-pointer.ts';
import { usePreloadPolicy } from '../hooks/use-preload-policy.ts';
import { type FeedBlacklist, isHiddenByBlacklist } from '../lib/feed-filter.ts';
import { clampIndex } from '../lib/feed-index.ts';
import { isMounted, preloadStateFor } from '../lib/preload.ts';
import { PullLimits } from '../lib/pull-refresh.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPager.module.css';
import { FeedPost } from './FeedPost.tsx';
import { PostContextMenu } from './PostContextMenu.tsx';

interface Props {
  posts: readonly Post[];
  index: number;
  onIndex: (index: number) => void;
  blacklist: FeedBlacklist;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** A last screen after the posts (the end of the feed). */
  end?: ReactNode;
}

const desktopQuery = '(hover: hover) and (pointer: fine)';

/** The full-screen vertical pager: one post per screen, preloading around the active one (§4.9). */
export function FeedPager({ posts, index, onIndex, blacklist, onRefresh, refreshing = false, end }: Props) {
  const policy = usePreloadPolicy();
  const revealed = useFeedUi((s) => s.revealed);
  const panelOpen = useFeedUi((s) => s.panel !== null);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [isDesktop] = useState(() => window.matchMedia?.(desktopQuery).matches ?? false);
  const count = posts.length + (end ? 1 : 0);
  const go = (step: number) => onIndex(clampIndex(index + step, count));
  const pointer = useFeedPointer({ atFirst: index === 0, atLast: index >= count - 1, onStep: go, onRefresh });

  useEffect(() => {
    if (panelOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLElement && event.target.closest('input, textarea, [role="dialog"]'))
        return;
      if (event.key === 'ArrowDown' || event.key === 'PageDown') onIndex(clampIndex(index + 1, count));
      if (event.key === 'ArrowUp' || event.key === 'PageUp') onIndex(clampIndex(index - 1, count));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [panelOpen, index, count, onIndex]);

  const active = posts[index];
  const pullShown = refreshing ? PullLimits.threshold : pointer.pull;
  return (
    <section
      className={styles.pager}
      aria-label={mediaStrings.label}
      aria-roledescription="feed"
      {...pointer.handlers}
      onContextMenu={(event) => {
        event.preventDefault();
        setMenu({ x: event.clientX, y: event.clientY });
      }}
    >
      {onRefresh && pullShown > 0 ? (
        <div className={styles.pull} style={{ height: pullShown }} role="status">
          {refreshing
            ? mediaStrings.refreshing
            : pullShown >= PullLimits.threshold
              ? mediaStrings.release
              : mediaStrings.pull}
        </div>
      ) : null}
      <div
        className={styles.track}
        data-dragging={pointer.dragY !== 0 || pointer.pull !== 0}
        style={{ transform: `translate3d(0, calc(${-index * 100}% + ${pointer.dragY + pullShown}px), 0)` }}
      >
        {posts.map((post, i) =>
          isMounted(i, index, policy) ? (
            <div key={post.id} className={styles.slot} style={{ top: `${i * 100}%` }}>
              <FeedPost
                post={post}
                preload={preloadStateFor(i, index, policy)}
                policy={policy}
                hidden={isHiddenByBlacklist(post, blacklist) && !revealed.has(post.id)}
                register={pointer.register}
                isDesktop={isDesktop}
              />
            </div>
          ) : null,
        )}
        {end && isMounted(posts.length, index, policy) ? (
          // The end screen's refresh button is an overlay too: hidden with the interface (#18 item 4).
          <div className={styles.slot} style={{ top: `${posts.length * 100}%` }} data-overlay>
            {end}
          </div>
        ) : null}
      </div>
      {menu && active ? (
        <PostContextMenu x={menu.x} y={menu.y} post={active} onClose={() => setMenu(null)} />
      ) : null}
    </section>
  );
}
