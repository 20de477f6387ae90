import { lazy, Suspense } from 'react';
import { SearchPanel } from '../../search/feature.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { FeedPreferencesPanel } from '../modes/components/FeedPreferencesPanel.tsx';
import { ModesPanel } from '../modes/components/ModesPanel.tsx';
import { useMediaMode } from '../modes/media-mode-store.ts';
import { MyActionsPanel } from '../my-actions/components/MyActionsPanel.tsx';
import { EditAltPanel } from './EditAltPanel.tsx';

// Comments load when first opened: a press, never the feed's first screen.
const CommentsPanel = lazy(() => import('./CommentsPanel.tsx').then((m) => ({ default: m.CommentsPanel })));

/** The panels over the feed (spec §2.4): comments, preferences, modes, my actions, search, the alt text edit. */
export function FeedPanels() {
  const panel = useFeedUi((s) => s.panel);
  const commentsPostId = useFeedUi((s) => s.commentsPostId);
  const close = useFeedUi((s) => s.closePanel);
  const altPost = useFeedUi((s) => s.altPost);
  const mode = useMediaMode((s) => s.mode);
  switch (panel) {
    case 'comments':
      return commentsPostId === null ? null : (
        <Suspense fallback={null}>
          <CommentsPanel postId={commentsPostId} onClose={close} />
        </Suspense>
      );
    case 'preferences':
      return <FeedPreferencesPanel onClose={close} />;
    case 'modes':
      return <ModesPanel onClose={close} />;
    case 'myActions':
      return <MyActionsPanel onClose={close} />;
    case 'search':
      return (
        <Suspense fallback={null}>
          <SearchPanel onClose={close} sleep={mode === 'sleep'} />
        </Suspense>
      );
    case 'alt':
      return altPost === null ? null : <EditAltPanel key={altPost.id} post={altPost} onClose={close} />;
    case null:
      return null;
    default: {
      const exhaustive: never = panel;
      return exhaustive;
    }
  }
}
