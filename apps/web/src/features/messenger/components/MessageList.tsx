import { type UIEvent, useCallback } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import type { DisplayMessage } from '../lib/message-status.ts';
import { MessageBubble } from './MessageBubble.tsx';
import styles from './MessageList.module.css';

/** Older messages are requested when the reader scrolls within this distance of the top. */
const LOAD_OLDER_PX = 300;

interface Props {
  items: readonly DisplayMessage[];
  ownId: number;
  hasMore: boolean;
  loadingOlder: boolean;
  label: string;
  onLoadOlder: () => void;
  onMenu: (item: DisplayMessage, at: { x: number; y: number }) => void;
  onResend: (tempId: string) => void;
  onOpenMedia: (item: DisplayMessage, index: number) => void;
  onJumpTo?: (messageId: number) => void;
}

/**
 * The history, newest at the bottom. The scroller is `column-reverse`, so it starts at the bottom
 * and older pages added at the top leave the reader's position untouched.
 */
export function MessageList({ items, ownId, hasMore, loadingOlder, label, onLoadOlder, ...handlers }: Props) {
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      const el = event.currentTarget;
      // scrollTop is 0 at the bottom and negative upwards in a column-reverse scroller.
      const fromTop = el.scrollHeight - el.clientHeight - Math.abs(el.scrollTop);
      if (hasMore && fromTop < LOAD_OLDER_PX) onLoadOlder();
    },
    [hasMore, onLoadOlder],
  );

  return (
    <div className={styles.scroller} onScroll={onScroll} data-testid="message-scroller">
      <ol className={styles.list} aria-label={label}>
        {!hasMore ? <li className={styles.start}>{ru.messenger.conversationStart}</li> : null}
        {loadingOlder ? (
          <li className={styles.start} role="status" aria-label={ru.messenger.loading}>
            <Spinner />
          </li>
        ) : null}
        {items.map((item) => (
          <MessageBubble key={item.key} item={item} own={item.message.sender_id === ownId} {...handlers} />
        ))}
      </ol>
    </div>
  );
}
