import type { ChatListItem } from '@kadr/contract';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { usePeopleSearch } from '../hooks/use-message-search.ts';
import styles from './MessengerView.module.css';
import { chatStrings } from './strings.ts';

interface Props {
  query: string;
  chats: readonly ChatListItem[];
  ownId: number;
}

/**
 * People matching the chat search (name or @username) whom one has no chat with yet: a tap opens a new
 * chat with them (/messenger/{username}), as Telegram's global search does.
 */
export function PeopleResults({ query, chats, ownId }: Props) {
  const navigate = useNavigate();
  const search = usePeopleSearch(query);
  const withChat = new Set(chats.filter((c) => c.type === 'personal').map((c) => c.user_id));
  const people = (search.data?.users ?? []).filter((u) => u.id !== ownId && !withChat.has(u.id));
  if (people.length === 0) return null;
  return (
    <section className={styles.searchResults} aria-label={chatStrings.people}>
      <h2 className={styles.searchTitle}>{chatStrings.people}</h2>
      <ul className={styles.searchList}>
        {people.map((user) => (
          <li key={user.id}>
            <button
              type="button"
              className={`${styles.searchHit} ${styles.personHit}`}
              data-testid="people-search-hit"
              onClick={() => navigate(`/messenger/${user.username}`)}
            >
              <Avatar name={user.name} url={user.avatar_thumbnail_url ?? user.avatar_url} size={36} alt="" />
              <span className={styles.personText}>
                <strong>{user.name}</strong>
                <span>@{user.username}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
