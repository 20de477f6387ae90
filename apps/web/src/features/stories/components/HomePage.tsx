import type { Post } from '@kadr/contract';
import { Compass, EyeOff, Layers, Play } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePageShown } from '../../../app/boot/frame-overlay.ts';
import { shownTileImage, tileImgProps } from '../../../shared/lib/post-image.ts';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { DemoOffer } from '../../demo/feature.ts';
import { useHomeFeed, useStoriesFeed } from '../api/stories-queries.ts';
import { STORY_PARAM } from '../lib/story-link.ts';
import { usePullToRefresh } from '../lib/use-pull-to-refresh.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { STORY_UI, storiesStrings as s } from '../strings.ts';
import styles from './HomePage.module.css';
import { StoriesStrip } from './StoriesStrip.tsx';

function PostTile({ post, index, onOpen }: { post: Post; index: number; onOpen: () => void }) {
  const file = post.files[0];
  // A post carrying a tag the reader hid shows no picture here either: the feed it opens covers it too.
  const hidden = post.is_filtered;
  const image = shownTileImage(post);
  return (
    <button
      type="button"
      className={styles.tile}
      // The name holds the visible text in its order (the hidden notice, then the author).
      aria-label={`${hidden ? `${s.filtered} ` : ''}@${post.user.username}, ${s.openPost(index + 1)}`}
      onClick={onOpen}
      data-post-id={post.id}
      data-filtered={hidden || undefined}
    >
      {image ? <img {...tileImgProps(image, index)} alt={post.ai_description || post.caption} /> : null}
      {hidden ? (
        <span className={styles.tileFiltered} aria-hidden="true">
          <EyeOff size={22} />
          {s.filtered}
        </span>
      ) : null}{' '}
      <span className={styles.tileBadge} aria-hidden="true">
        {file?.file_type === 'video' ? <Play size={14} fill="currentColor" /> : null}
        {post.files.length > 1 ? <Layers size={14} /> : null}
      </span>
      <span className={styles.tileAuthor}>@{post.user.username}</span>
    </button>
  );
}

/**
 * The home page (spec §2.5): 'Главная', the stories strip (live entries in `leading`), and under
 * 'Главная лента' the recent posts of the people one follows, each opening the media feed on that post.
 */
export function HomePage({ leading }: { leading?: ReactNode }) {
  const [params] = useSearchParams();
  // Opened on a story (a shared link): the frame shows the story until its viewer is there, and the viewer
  // covers the page. The strip and the grid (and their pictures) render once the viewer closes and the link
  // goes: under it, on the first load, they were main-thread work after the first paint that nobody sees.
  // Their queries run all the same, so both show at once then. A link to a story that is gone shows its
  // sheet over the page instead, and the page is there behind it.
  const linkMissing = useStoriesUi((st) => st.linkMissing !== null);
  const covered = params.has(STORY_PARAM) && !linkMissing;
  usePageShown(!params.has(STORY_PARAM));
  const navigate = useNavigate();
  const stories = useStoriesFeed();
  const home = useHomeFeed();
  const openViewer = useStoriesUi((st) => st.openViewer);
  const openEditor = useStoriesUi((st) => st.openEditor);
  const scroller = useRef<HTMLElement>(null);
  const { pull, refreshing } = usePullToRefresh(
    scroller,
    () => Promise.all([stories.refetch(), home.refetch()]),
    { threshold: STORY_UI.pullThreshold, max: STORY_UI.pullMax },
  );
  const groups = stories.data ?? [];
  const posts = home.data?.posts ?? [];

  let grid: ReactNode;
  // Nothing under the viewer, not even a spinner: its endless animation, unseen, had the compositor make and
  // the browser capture a frame every 16 ms for as long as the story was open (a story link's first load spent
  // a third of a core on it, beside the page's own work).
  if (covered) grid = null;
  else if (home.isPending) grid = <Spinner />;
  else if (home.isError) grid = <p className={styles.muted}>{s.homeLoadFailed}</p>;
  else if (posts.length === 0)
    grid = (
      <div className={styles.empty}>
        <span className={styles.emptyIcon} aria-hidden="true">
          <Compass size={36} />
        </span>
        <p className={styles.emptyTitle}>{s.homeEmptyTitle}</p>
        <p className={styles.muted}>{s.homeEmptyText}</p>
        <button type="button" className={styles.cta} onClick={() => navigate('/media')}>
          {s.homeEmptyAction}
        </button>
        <DemoOffer />
      </div>
    );
  else
    grid = (
      <ul className={styles.grid}>
        {posts.map((post, i) => (
          <li key={post.id}>
            <PostTile post={post} index={i} onOpen={() => navigate(`/media/post/${post.id}`)} />
          </li>
        ))}
      </ul>
    );

  return (
    <section ref={scroller} className={styles.page} aria-labelledby="home-title" data-testid="home-page">
      <div
        className={styles.pull}
        style={{ height: pull, opacity: Math.min(1, pull / STORY_UI.pullThreshold) }}
        aria-live="polite"
      >
        {pull > 0 ? <span>{refreshing ? s.refreshing : s.pullToRefresh}</span> : null}
      </div>
      <h1 id="home-title" className={styles.title}>
        {s.homeTitle}
      </h1>
      {covered ? null : (
        <StoriesStrip
          groups={groups}
          leading={leading}
          onAdd={openEditor}
          onOpen={(index) => openViewer(groups, index, firstUnviewed(groups[index]?.stories ?? []))}
        />
      )}
      <h2 className={styles.heading}>{s.homeFeed}</h2>
      {grid}
    </section>
  );
}

function firstUnviewed(stories: readonly { is_viewed: boolean }[]): number {
  const i = stories.findIndex((x) => !x.is_viewed);
  return i < 0 ? 0 : i;
}
