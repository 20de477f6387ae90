import type { ChatListItem, ChatRef, UserSummary } from '@kadr/contract';
import { useMemo, useState } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { chatRefOf } from '../api/chats-cache.ts';
import { usePeopleSearch } from '../hooks/use-message-search.ts';
import { chatKey, filterChats } from '../lib/chat-order.ts';
import { messengerStrings } from '../strings.ts';
import styles from './Dialog.module.css';
import { chatStrings } from './strings.ts';

interface Props {
  chats: readonly ChatListItem[];
  ownId: number;
  onPick: (target: ChatRef) => void;
  onClose: () => void;
}

/** Where a forward may go: every chat one may write in (a channel only with the right to post). */
export const forwardable = (chat: ChatListItem) =>
  chat.type !== 'channel' || chat.channel_data?.can_post === true;

/**
 * Picks where a message is forwarded, on the shared modal sheet (focus trapped and returned): the chats
 * one may write in, found by name as one types, and people found by name or @username — so a forward
 * reaches someone one has no chat with yet.
 */
export function ForwardDialog({ chats, ownId, onPick, onClose }: Props) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterChats(chats.filter(forwardable), query), [chats, query]);
  const people = usePeopleSearch(query);
  const withChat = new Set(chats.filter((c) => c.type === 'personal').map((c) => c.user_id));
  const strangers = (people.data?.users ?? []).filter((u) => u.id !== ownId && !withChat.has(u.id));
  const pickPerson = (user: UserSummary) =>
    onPick({ type: 'personal', user_id: user.id, is_favorites: false });
  return (
    <Sheet title={messengerStrings.forwardTitle} onClose={onClose} testId="forward-sheet">
      <input
        className={styles.search}
        type="search"
        placeholder={chatStrings.forwardSearch}
        aria-label={chatStrings.forwardSearch}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
      />
      <ul className={styles.list} aria-label={chatStrings.forwardChats}>
        {shown.map((chat) => (
          <li key={chatKey(chat)}>
            <button type="button" className={styles.option} onClick={() => onPick(chatRefOf(chat))}>
              <Avatar
                name={chat.username}
                url={chat.avatar_thumbnail_url ?? chat.avatar_url}
                size={36}
                alt=""
              />
              <span>{chat.username}</span>
            </button>
          </li>
        ))}
      </ul>
      {strangers.length > 0 ? (
        <>
          <h3 className={styles.heading}>{chatStrings.people}</h3>
          <ul className={styles.list} aria-label={chatStrings.people}>
            {strangers.map((user) => (
              <li key={user.id}>
                <button
                  type="button"
                  className={styles.option}
                  data-testid="forward-person"
                  onClick={() => pickPerson(user)}
                >
                  <Avatar
                    name={user.name}
                    url={user.avatar_thumbnail_url ?? user.avatar_url}
                    size={36}
                    alt=""
                  />
                  <span className={styles.person}>
                    <span>{user.name}</span>
                    <span className={styles.handle}>@{user.username}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {shown.length === 0 && strangers.length === 0 ? (
        <p className={styles.empty}>
          {query.trim() ? chatStrings.nothingFound : chatStrings.forwardSearchHint}
        </p>
      ) : null}
    </Sheet>
  );
}
