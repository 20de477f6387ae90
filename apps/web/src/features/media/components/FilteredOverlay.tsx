import { Button } from '../../../shared/ui/Button.tsx';
import { useFeedUi } from '../feed-ui-store.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';

/**
 * A post whose tags the user hid (spec §4.7); 'Посмотреть' reveals it. The cover itself stays a feed
 * surface (no `data-no-gesture`): a vertical swipe on it moves on, as on any post; only its button opts out.
 */
export function FilteredOverlay({ postId }: { postId: number }) {
  const reveal = useFeedUi((s) => s.reveal);
  return (
    <div className={styles.filtered}>
      <p>{mediaStrings.filtered}</p>
      <Button variant="secondary" onClick={() => reveal(postId)}>
        {mediaStrings.reveal}
      </Button>
    </div>
  );
}
