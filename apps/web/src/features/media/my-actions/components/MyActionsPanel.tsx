import { useState } from 'react';
import { useNavigate } from 'react-router';
import { EAGER_TILES } from '../../../../shared/lib/post-image.ts';
import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../../shared/ui/Spinner.tsx';
import { profileStrings } from '../../../profile/strings.ts';
import { flattenPages } from '../../api/feed-queries.ts';
import type { ActionsTab } from '../../api/media-keys.ts';
import { mediaStrings } from '../../strings.ts';
import { nearBottom, useActionsQuery } from '../api/actions-queries.ts';
import styles from './MyActionsPanel.module.css';
import { PostTile } from './PostTile.tsx';

const T = mediaStrings.myActions;
const TABS: readonly ActionsTab[] = ['liked', 'reposted', 'saved'];

/** 'Мои действия' (spec §2.3): liked, reposted and saved posts, 9 at a time, more near the bottom. */
export function MyActionsPanel({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<ActionsTab>('liked');
  const navigate = useNavigate();
  const query = useActionsQuery(tab);
  const posts = flattenPages(query.data);

  const onScroll = (el: HTMLDivElement) => {
    if (nearBottom(el) && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };

  return (
    <Sheet title={T.title} onClose={onClose}>
      <div className={styles.tabs} role="tablist" aria-label={T.title}>
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`my-actions-tab-${t}`}
            aria-selected={t === tab}
            aria-controls="my-actions-grid"
            className={styles.tab}
            onClick={() => setTab(t)}
          >
            {T.tabs[t]}
          </button>
        ))}
      </div>
      <div
        id="my-actions-grid"
        role="tabpanel"
        aria-labelledby={`my-actions-tab-${tab}`}
        className={styles.scroller}
        onScroll={(e) => onScroll(e.currentTarget)}
      >
        {query.isPending ? (
          <Spinner />
        ) : posts.length === 0 ? (
          <p className={styles.empty}>{T.empty}</p>
        ) : (
          <ul className={styles.grid}>
            {posts.map((post, i) => (
              <li key={post.id}>
                <PostTile
                  post={post}
                  // A panel opened later: its tiles are no page's first paint.
                  index={i + EAGER_TILES}
                  label={profileStrings.profilePosts.open(i + 1)}
                  onOpen={() => {
                    onClose();
                    navigate('/media', { state: { from: 'actions', tab, postIndex: i } });
                  }}
                />
              </li>
            ))}
          </ul>
        )}
        {query.isFetchingNextPage ? <Spinner /> : null}
      </div>
    </Sheet>
  );
}
