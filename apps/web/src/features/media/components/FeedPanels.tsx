import { useFeedUi } from '../feed-ui-store.ts';
import { FeedPreferencesPanel } from '../modes/components/FeedPreferencesPanel.tsx';
import { ModesPanel } from '../modes/components/ModesPanel.tsx';
import { UserSearchPanel } from '../modes/components/UserSearchPanel.tsx';
import { MyActionsPanel } from '../my-actions/components/MyActionsPanel.tsx';
import { CommentsPanel } from './CommentsPanel.tsx';

/** The panels over the feed (spec §2.4): comments, preferences, modes, my actions, search. */
export function FeedPanels() {
  const panel = useFeedUi((s) => s.panel);
  const commentsPostId = useFeedUi((s) => s.commentsPostId);
  const close = useFeedUi((s) => s.closePanel);
  switch (panel) {
    case 'comments':
      return commentsPostId === null ? null : <CommentsPanel postId={commentsPostId} onClose={close} />;
    case 'preferences':
      return <FeedPreferencesPanel onClose={close} />;
    case 'modes':
      return <ModesPanel onClose={close} />;
    case 'myActions':
      return <MyActionsPanel onClose={close} />;
    case 'search':
      return <UserSearchPanel onClose={close} />;
    case null:
      return null;
    default: {
      const exhaustive: never = panel;
      return exhaustive;
    }
  }
}
