import type { ChatListItem, ChatRef } from '@kadr/contract';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { isChat } from '../api/chats-cache.ts';
import { useMessageSearch } from '../hooks/use-message-search.ts';
import { chatKey, truncatePreview } from '../lib/chat-order.ts';
import { parseMarkdown, plainText } from '../lib/markdown-parse.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MessengerView.module.css';

interface Props {
  query: string;
  chats: readonly ChatListItem[];
  onOpen: (chat: ChatListItem) => void;
}

/** Messages matching the search field, under the matching chats; a hit opens its chat. */
export function MessageSearchResults({ query, chats, onOpen }: Props) {
  const search = useMessageSearch(query);
  const results = search.data?.results ?? [];
  const chatOf = (ref: ChatRef) => chats.find((chat) => isChat(chat, ref));
  if (!search.data) return null;
  return (
    <section className={styles.searchResults} aria-label={messengerStrings.foundMessages}>
      <h2 className={styles.searchTitle}>{messengerStrings.foundMessages}</h2>
      {results.length === 0 ? (
        <p className={styles.searchEmpty}>{messengerStrings.noMessagesFound}</p>
      ) : (
        <ul className={styles.searchList}>
          {results.map(({ chat: ref, message }) => {
            const chat = chatOf(ref);
            if (!chat) return null;
            return (
              <li key={message.id}>
                <button
                  type="button"
                  className={styles.searchHit}
                  data-testid="message-search-hit"
                  onClick={() => {
                    // The chat opens at the found message, not at its newest end.
                    useMessengerUi.getState().requestJump(chatKey(chat), message.id);
                    onOpen(chat);
                  }}
                >
                  <strong>{chat.username}</strong>
                  <span>{withEmoji(truncatePreview(plainText(parseMarkdown(message.content))))}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
