import { memo } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { StoryReplyPreview } from '../../stories/components/StoryReplyPreview.tsx';
import { extractPostIds } from '../lib/media-links.ts';
import type { DisplayMessage, MessageStatus } from '../lib/message-status.ts';
import { Markdown } from './Markdown.tsx';
import styles from './MessageBubble.module.css';
import { MessageFiles } from './MessageFiles.tsx';
import { PostPreviewCard } from './PostPreviewCard.tsx';

const timeFormat = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });

const STATUS_MARK: Record<MessageStatus, string> = {
  pending: '○',
  failed: '!',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
};

interface Props {
  item: DisplayMessage;
  own: boolean;
  onMenu: (item: DisplayMessage, at: { x: number; y: number }) => void;
  onResend: (tempId: string) => void;
  onOpenMedia: (item: DisplayMessage, index: number) => void;
}

export const MessageBubble = memo(function MessageBubble({
  item,
  own,
  onMenu,
  onResend,
  onOpenMedia,
}: Props) {
  const { message, status } = item;
  const postIds = extractPostIds(message.content).slice(0, 3);
  return (
    <li
      className={`${styles.row} ${own ? styles.own : styles.theirs}`}
      data-testid="message"
      data-status={status ?? undefined}
      data-message-id={message.id > 0 ? message.id : undefined}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the right-click menu is a shortcut; the ⋯ button offers the same menu to keyboards. */}
      <div
        className={styles.bubble}
        onContextMenu={(event) => {
          event.preventDefault();
          onMenu(item, { x: event.clientX, y: event.clientY });
        }}
      >
        {message.is_forwarded && message.forwarded_from_username ? (
          <p className={styles.forwarded}>{ru.messenger.forwardedFrom(message.forwarded_from_username)}</p>
        ) : null}
        {message.story ? <StoryReplyPreview story={message.story} /> : null}
        {message.files.length > 0 ? (
          <MessageFiles files={message.files} onOpen={(index) => onOpenMedia(item, index)} />
        ) : null}
        {message.content ? <Markdown source={message.content} /> : null}
        {postIds.map((id) => (
          <PostPreviewCard key={id} postId={id} />
        ))}
        <span className={styles.meta}>
          {message.is_edited ? <span>{ru.messenger.edited}</span> : null}
          <time dateTime={message.created_at}>{timeFormat.format(Date.parse(message.created_at))}</time>
          {status ? (
            <span
              className={`${styles.status} ${styles[status]}`}
              role="img"
              aria-label={ru.messenger.status[status]}
              title={ru.messenger.status[status]}
            >
              {STATUS_MARK[status]}
            </span>
          ) : null}
        </span>
        <button
          type="button"
          className={styles.more}
          aria-label={ru.messenger.messageActions}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            onMenu(item, { x: box.left, y: box.bottom });
          }}
        >
          ⋯
        </button>
      </div>
      {status === 'failed' && item.tempId ? (
        <button type="button" className={styles.resend} onClick={() => onResend(item.tempId ?? '')}>
          {ru.messenger.resend}
        </button>
      ) : null}
    </li>
  );
});
