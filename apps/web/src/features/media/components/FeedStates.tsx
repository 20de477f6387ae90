import { useGoBack } from '../../../shared/lib/go-back.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { DemoOffer } from '../../demo/feature.ts';
import { PrivateAccountNotice } from '../../profile/components/PrivateAccountNotice.tsx';
import { mediaStrings } from '../strings.ts';
import styles from './MediaScreen.module.css';

export type FeedEmptyKind = 'loading' | 'tuning' | 'empty' | 'sleepEmpty' | 'notFound' | 'privateAccount';

/** The end of the main feed: said plainly, with a way to refresh (#18 item 8). */
export function FeedEnd({ onRefresh }: { onRefresh?: () => void }) {
  return (
    <div className={styles.state} data-testid="feed-end">
      <h2 className={styles.stateTitle}>{mediaStrings.endTitle}</h2>
      <p>{mediaStrings.endSubtitle}</p>
      {onRefresh ? <Button onClick={onRefresh}>{mediaStrings.endRefresh}</Button> : null}
    </div>
  );
}

/** The §2.4 loading and empty texts. */
export function FeedState({ kind }: { kind: FeedEmptyKind }) {
  const goBack = useGoBack();
  switch (kind) {
    case 'notFound':
      // A link to a post that does not exist, was deleted or is hidden: say so, never show another post.
      return (
        <div className={styles.state} data-testid="post-not-found">
          <h1 className={styles.stateTitle}>{mediaStrings.postNotFound}</h1>
          <p>{mediaStrings.postNotFoundHint}</p>
          <Button variant="secondary" onClick={() => goBack('/media')}>
            {mediaStrings.backToFeed}
          </Button>
        </div>
      );
    case 'privateAccount':
      return (
        <div className={styles.state} data-testid="post-private">
          <PrivateAccountNotice />
          <Button variant="secondary" onClick={() => goBack('/media')}>
            {mediaStrings.backToFeed}
          </Button>
        </div>
      );
    case 'loading':
      return (
        <div className={styles.state} role="status">
          <Spinner />
          <p>{mediaStrings.loading}</p>
        </div>
      );
    case 'tuning':
      return (
        <div className={styles.state} role="status">
          <Spinner />
          <p>{mediaStrings.tuning}</p>
        </div>
      );
    case 'empty':
      return (
        <div className={styles.state}>
          <h1 className={styles.stateTitle}>{mediaStrings.emptyTitle}</h1>
          <p>{mediaStrings.emptySubtitle}</p>
          <DemoOffer />
        </div>
      );
    case 'sleepEmpty':
      return (
        <div className={styles.state}>
          <h1 className={styles.stateTitle}>{mediaStrings.sleepEmpty}</h1>
        </div>
      );
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}
