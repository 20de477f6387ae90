import { ru } from '../../../shared/i18n/ru.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { useFeedUi } from '../feed-ui-store.ts';
import styles from './FeedPost.module.css';

/** A post whose tags the user hid (spec §4.7); 'Посмотреть' reveals it. */
export function FilteredOverlay({ postId }: { postId: number }) {
  const reveal = useFeedUi((s) => s.reveal);
  return (
    <div className={styles.filtered} data-no-gesture>
      <p>{ru.feed.filtered}</p>
      <Button variant="secondary" onClick={() => reveal(postId)}>
        {ru.feed.reveal}
      </Button>
    </div>
  );
}
