import type { ChatListItem } from '@kadr/contract';
import { ru } from '../../../shared/i18n/ru.ts';
import { formatLastSeen } from '../../../shared/lib/last-seen.ts';
import { useClock } from '../../../shared/lib/use-clock.ts';
import { useOnline } from '../../../shared/lib/use-online.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { CallButtons } from '../../calls/components/CallButtons.tsx';
import { usePresence } from '../../profile/api/presence.ts';
import { isTyping, useTypingStore } from '../store/typing-store.ts';
import { messengerStrings } from '../strings.ts';
import styles from './ChatWindow.module.css';
import { chatStrings } from './strings.ts';

interface Props {
  chat: ChatListItem;
  showBack: boolean;
  onBack: () => void;
  onToggleProfile: () => void;
  onOpenMedia: () => void;
  onMenu: (at: { x: number; y: number }) => void;
  /** Unread messages in the other chats, on the back arrow (a phone's full-screen chat, as Telegram). */
  unreadElsewhere?: number;
}

/** Name, then the typing line or the last-seen wording (spec §9), and the chat's actions. */
export function ChatHeader({
  chat,
  showBack,
  onBack,
  onToggleProfile,
  onOpenMedia,
  onMenu,
  unreadElsewhere = 0,
}: Props) {
  const personal = chat.type === 'personal' && !chat.is_favorites;
  const presence = usePresence(personal ? chat.user_id : undefined);
  const typingUntil = useTypingStore((s) => s.until);
  const typing = useClock(
    (now) => personal && navigator.onLine !== false && isTyping(typingUntil, chat.user_id, now),
  );
  const online = useOnline();
  // Without a network the peer's state is unknown: say so instead of a stale «онлайн» (as Telegram).
  const lastSeen = useClock((now) =>
    !online
      ? ru.app.waitingForNetwork
      : personal
        ? formatLastSeen(presence.data?.online ?? false, presence.data?.last_seen ?? chat.last_seen, now)
        : null,
  );

  return (
    <header className={styles.header}>
      {showBack ? <BackButton onBack={onBack} unread={unreadElsewhere} /> : null}
      <button
        type="button"
        className={styles.identity}
        onClick={onToggleProfile}
        disabled={!personal}
        title={personal ? messengerStrings.openProfile : undefined}
      >
        <Avatar name={chat.username} url={chat.avatar_thumbnail_url ?? chat.avatar_url} size={40} alt="" />
        <span className={styles.identityText}>
          <span className={styles.chatName}>{chat.username}</span>
          {typing ? (
            <span className={styles.typing} data-testid="typing">
              {messengerStrings.typing}
            </span>
          ) : lastSeen ? (
            <span className={styles.lastSeen} data-testid="chat-status">
              {lastSeen}
            </span>
          ) : null}
        </span>
      </button>
      {personal ? (
        <CallButtons
          className={styles.headerButton}
          peer={{
            id: chat.user_id,
            username: chat.profile_username ?? chat.username,
            name: chat.username,
            avatar_url: chat.avatar_url,
          }}
        />
      ) : null}
      <button
        type="button"
        className={styles.headerButton}
        onClick={onOpenMedia}
        aria-label={messengerStrings.chatMedia}
      >
        <Icon name="media" />
      </button>
      <button
        type="button"
        className={styles.headerButton}
        aria-label={messengerStrings.chatActions}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          onMenu({ x: box.right - 200, y: box.bottom });
        }}
      >
        <Icon name="menu" />
      </button>
    </header>
  );
}

/** Back to the list, with the unread count of the other chats beside the arrow when there is one. */
export function BackButton({ onBack, unread }: { onBack: () => void; unread: number }) {
  const shown = unread > 99 ? '99+' : String(unread);
  return (
    <button
      type="button"
      className={`${styles.headerButton} ${unread > 0 ? styles.backWithCount : ''}`}
      onClick={onBack}
      aria-label={unread > 0 ? chatStrings.backWithUnread(shown) : messengerStrings.back}
      data-testid="chat-back"
    >
      <Icon name="back" />
      {unread > 0 ? (
        <span className={styles.backCount} data-testid="back-unread">
          {shown}
        </span>
      ) : null}
    </button>
  );
}
