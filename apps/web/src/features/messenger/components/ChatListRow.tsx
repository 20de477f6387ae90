import type { ChatListItem } from '@kadr/contract';
import { callEntrySeenBy } from '@kadr/contract/browser';
import { memo } from 'react';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { formatClock, formatDayMonth } from '../../../shared/lib/ru-format.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { usePeerTyping } from '../hooks/use-peer-typing.ts';
import { truncatePreview } from '../lib/chat-order.ts';
import { parseMarkdown, plainText } from '../lib/markdown-parse.ts';
import { messengerStrings } from '../strings.ts';
import styles from './ChatList.module.css';

function shortTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at) || at <= 0) return '';
  return now - at < 86_400_000 ? formatClock(at) : formatDayMonth(at, { month: 'short' });
}

export function previewOf(chat: ChatListItem, ownId: number): string {
  const last = chat.last_message;
  if (!last) return chat.is_favorites ? messengerStrings.favoritesHint : '';
  const text = last.content
    ? last.message_type === 'call'
      ? callEntrySeenBy(last.content, last.sender_id === ownId)
      : plainText(parseMarkdown(last.content))
    : last.file_type
      ? messengerStrings.filePreview[last.file_type]
      : messengerStrings.attachmentPreview;
  // A call entry already says whose call it was.
  const prefix =
    last.sender_id === ownId && !chat.is_favorites && last.message_type !== 'call'
      ? messengerStrings.you
      : '';
  return truncatePreview(`${prefix}${text}`);
}

interface Props {
  chat: ChatListItem;
  ownId: number;
  selected: boolean;
  reducedBadges: boolean;
  onSelect: (chat: ChatListItem) => void;
  onMenu: (chat: ChatListItem, at: { x: number; y: number }) => void;
}

/** One 72 px row of the chat list. */
export const ChatListRow = memo(function ChatListRow({
  chat,
  ownId,
  selected,
  reducedBadges,
  onSelect,
  onMenu,
}: Props) {
  const unread = chat.unread_count;
  const typing = usePeerTyping(chat.type === 'personal' && !chat.is_favorites ? chat.user_id : null);
  return (
    <button
      type="button"
      className={styles.row}
      aria-current={selected ? 'true' : undefined}
      data-testid="chat-row"
      onClick={() => onSelect(chat)}
      onContextMenu={(event) => {
        event.preventDefault();
        onMenu(chat, { x: event.clientX, y: event.clientY });
      }}
    >
      <Avatar name={chat.username} url={chat.avatar_thumbnail_url ?? chat.avatar_url} size={48} />
      <span className={styles.rowText}>
        <span className={styles.rowTop}>
          <span className={styles.name}>{chat.username}</span>
          {chat.is_pinned ? (
            <span className={styles.pin} role="img" aria-label={messengerStrings.pinned}>
              <svg width="12" height="12" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M9 3h6l-1 6 4 4H6l4-4zM12 13v8" fill="none" stroke="currentColor" strokeWidth="2" />
              </svg>
            </span>
          ) : null}
          <span className={styles.time}>{shortTime(chat.last_message?.created_at, Date.now())}</span>
        </span>
        <span className={styles.rowBottom}>
          {typing ? (
            <span className={`${styles.preview} ${styles.typing}`} data-testid="row-typing">
              {messengerStrings.typing}
            </span>
          ) : (
            <span className={styles.preview}>{withEmoji(previewOf(chat, ownId))}</span>
          )}
          {unread > 0 ? (
            <span
              className={reducedBadges ? styles.dot : styles.badge}
              role="status"
              aria-label={messengerStrings.unread(unread)}
              data-testid="unread-badge"
            >
              {reducedBadges ? '' : unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </span>
      </span>
    </button>
  );
});
