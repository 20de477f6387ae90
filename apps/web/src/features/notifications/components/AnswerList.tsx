import { ApiError } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Button } from '../../../shared/ui/Button.tsx';
import { relativeTime } from '../lib/relative-time.ts';
import { notificationsStrings } from '../strings.ts';
import styles from './NotificationsPanel.module.css';

const T = notificationsStrings;

export interface AnswerItem {
  key: string | number;
  name: string;
  avatarUrl: string | null;
  sentence: string;
  createdAt?: string;
}

/**
 * A section of the notifications panel whose rows wait for the user's «Принять» / «Отклонить» (invitations,
 * follow requests): the title with its count, the failure of the last answer, each row with both buttons.
 */
export function AnswerList({
  id,
  title,
  items,
  error,
  failedText,
  pending,
  onAnswer,
}: {
  id: string;
  title: string;
  items: readonly AnswerItem[];
  error: unknown;
  /** Shown when the answer failed without a server message. */
  failedText: string;
  pending: boolean;
  onAnswer: (key: AnswerItem['key'], accept: boolean) => void;
}) {
  if (items.length === 0) return null;
  const failure = error instanceof ApiError ? error.message : error ? failedText : null;
  return (
    <section className={styles.group} aria-labelledby={id}>
      <h3 id={id} className={styles.groupTitle}>
        {title}
        <span className={styles.groupCount}>{items.length}</span>
      </h3>
      {failure ? (
        <p role="alert" className={styles.groupEmpty}>
          {failure}
        </p>
      ) : null}
      <ul className={styles.items}>
        {items.map((item) => (
          <li key={item.key} className={styles.item} data-unread>
            <div className={styles.itemMain}>
              <Avatar name={item.name} url={item.avatarUrl} size={44} />
              <span className={styles.itemText}>
                <span className={styles.sentence}>{item.sentence}</span>
                {item.createdAt ? (
                  <time className={styles.time} dateTime={item.createdAt}>
                    {relativeTime(item.createdAt)}
                  </time>
                ) : null}
                <span className={styles.invitationActions}>
                  <Button
                    aria-label={`${T.accept}: ${item.sentence}`}
                    disabled={pending}
                    onClick={() => onAnswer(item.key, true)}
                  >
                    {T.accept}
                  </Button>
                  <Button
                    variant="secondary"
                    aria-label={`${T.decline}: ${item.sentence}`}
                    disabled={pending}
                    onClick={() => onAnswer(item.key, false)}
                  >
                    {T.decline}
                  </Button>
                </span>
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
