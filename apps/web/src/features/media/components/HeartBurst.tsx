import { Heart } from 'lucide-react';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';

/** The heart a double tap shows; it removes itself when its animation ends. */
export function HeartBurst({ onDone }: { onDone: () => void }) {
  return (
    <span className={styles.heart} role="img" aria-label={mediaStrings.likedHeart} onAnimationEnd={onDone}>
      <Heart size={96} fill="currentColor" strokeWidth={0} aria-hidden="true" />
    </span>
  );
}
