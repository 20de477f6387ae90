import { useCurrentUser } from '../../auth/auth-store.ts';
import { useReducedBadges } from '../../messenger/api/reduced-badges.ts';
import { useUnreadTotal } from '../../messenger/api/unread-total.ts';
import { messengerStrings } from '../../messenger/strings.ts';
import styles from './MessengerUnreadBadge.module.css';

/**
 * The unread total on the messenger's navigation entry (nothing when all is read); a dot without the number
 * when the user chose reduced unread badges.
 */
export function MessengerUnreadBadge({ className }: { className?: string }) {
  const signedIn = useCurrentUser() !== null;
  const total = useUnreadTotal(signedIn);
  const reduced = useReducedBadges(signedIn);
  if (total === 0) return null;
  return (
    <span
      className={`${reduced ? styles.dot : styles.badge} ${className ?? ''}`}
      role="status"
      aria-label={messengerStrings.unread(total)}
      data-testid="messenger-unread-total"
    >
      {reduced ? '' : total > 99 ? '99+' : total}
    </span>
  );
}
