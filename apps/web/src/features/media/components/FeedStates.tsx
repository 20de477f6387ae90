import { ru } from '../../../shared/i18n/ru.ts';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import styles from './MediaScreen.module.css';

export type FeedEmptyKind = 'loading' | 'tuning' | 'empty' | 'sleepEmpty';

/** The §2.4 loading and empty texts. */
export function FeedState({ kind }: { kind: FeedEmptyKind }) {
  switch (kind) {
    case 'loading':
      return (
        <div className={styles.state} role="status">
          <Spinner />
          <p>{ru.feed.loading}</p>
        </div>
      );
    case 'tuning':
      return (
        <div className={styles.state} role="status">
          <Spinner />
          <p>{ru.feed.tuning}</p>
        </div>
      );
    case 'empty':
      return (
        <div className={styles.state}>
          <h1 className={styles.stateTitle}>{ru.feed.emptyTitle}</h1>
          <p>{ru.feed.emptySubtitle}</p>
        </div>
      );
    case 'sleepEmpty':
      return (
        <div className={styles.state}>
          <h1 className={styles.stateTitle}>{ru.feed.sleepEmpty}</h1>
        </div>
      );
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}
