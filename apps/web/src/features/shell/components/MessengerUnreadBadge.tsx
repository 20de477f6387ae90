import { ru } from '../../../shared/i18n/ru.ts';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { useUnreadTotal } from '../../messenger/api/unread-total.ts';
import styles from './MessengerUnreadBadge.module.css';

/** The unread total on the messenger's navigation entry (nothing when all is read). */
export function MessengerUnreadBadge({ className }: { className?: string }) {
  const total = useUnreadTotal(useCurrentUser() !== null);
  if (total === 0) return null;
  return (
    <span
      className={`${styles.badge} ${className ?? ''}`}
      role="status"
      aria-label={ru.messenger.unread(total)}
      data-testid="messenger-unread-total"
    >
      {total > 99 ? '99+' : total}
    </span>
  );
}
