import type { Notification, NotificationGroup } from '@kadr/contract';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useMarkRead, useNotificationsQuery } from '../api/notifications-queries.ts';
import { relativeTime } from '../lib/relative-time.ts';
import { notificationsStrings } from '../strings.ts';
import { FollowRequestsList } from './FollowRequestsList.tsx';
import { InvitationsList } from './InvitationsList.tsx';
import styles from './NotificationsPanel.module.css';

const T = notificationsStrings;

/** The pages merged into the three groups, in the server's order. */
function merged(pages: readonly { groups: NotificationGroup[] }[]): NotificationGroup[] {
  const [first, ...rest] = pages;
  if (!first) return [];
  return first.groups.map((group) => ({
    ...group,
    items: [...group.items, ...rest.flatMap((p) => p.groups.find((g) => g.key === group.key)?.items ?? [])],
  }));
}

function Item({ item, onOpen }: { item: Notification; onOpen: (item: Notification) => void }) {
  const markRead = useMarkRead();
  return (
    <li className={styles.item} data-unread={!item.is_read || undefined}>
      <button type="button" className={styles.itemMain} onClick={() => onOpen(item)}>
        <Avatar name={item.display_name} url={item.preview_url} size={44} />
        <span className={styles.itemText}>
          <span className={styles.sentence}>{item.text}</span>
          <time className={styles.time} dateTime={item.created_at}>
            {relativeTime(item.created_at)}
          </time>
        </span>
      </button>
      {item.is_read ? null : (
        <button
          type="button"
          className={styles.dot}
          aria-label={`${T.markRead}: ${item.text}`}
          title={T.markRead}
          onClick={() => markRead.mutate(item.id)}
        />
      )}
    </li>
  );
}

/** The panel's content: groups with titles, items with §9 relative time, paging, empty states. */
export function NotificationsList({ onNavigate }: { onNavigate: () => void }) {
  const query = useNotificationsQuery();
  const markRead = useMarkRead();
  const navigate = useNavigate();

  const open = (item: Notification) => {
    if (!item.is_read) markRead.mutate(item.id);
    onNavigate();
    if (item.chat_key) navigate('/messenger', { state: { openChatKey: item.chat_key } });
    else navigate(item.url);
  };

  if (query.isPending) {
    return (
      <div className={styles.center}>
        <Spinner />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className={styles.center} role="alert">
        <p>{T.loadFailed}</p>
        <button type="button" className={styles.textButton} onClick={() => void query.refetch()}>
          {T.retry}
        </button>
      </div>
    );
  }
  const groups = merged(query.data.pages);
  if (groups.every((g) => g.items.length === 0)) {
    return (
      <div className={styles.groups}>
        <FollowRequestsList />
        <InvitationsList />
        <p className={styles.empty}>{T.empty}</p>
      </div>
    );
  }
  return (
    <div className={styles.groups}>
      <FollowRequestsList />
      <InvitationsList />
      {groups.map((group) => (
        <section key={group.key} className={styles.group} aria-labelledby={`notifications-${group.key}`}>
          <h3 id={`notifications-${group.key}`} className={styles.groupTitle}>
            {group.title}
            {group.unread_count > 0 ? (
              <span className={styles.groupCount}>
                <span className={styles.visuallyHidden}>{T.unread}: </span>
                {group.unread_count}
              </span>
            ) : null}
          </h3>
          {group.items.length === 0 ? (
            <p className={styles.groupEmpty}>{T.groupEmpty}</p>
          ) : (
            <ul className={styles.items}>
              {group.items.map((item) => (
                <Item key={item.id} item={item} onOpen={open} />
              ))}
            </ul>
          )}
        </section>
      ))}
      {query.hasNextPage ? (
        <button
          type="button"
          className={styles.textButton}
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {T.loadMore}
        </button>
      ) : null}
    </div>
  );
}
