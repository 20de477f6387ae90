import type { ReactionKind } from '@kadr/contract';
import { Check, CheckCheck, CircleAlert, Clock, Ellipsis, type LucideIcon, PhoneCall } from 'lucide-react';
import { createElement, memo } from 'react';
import { formatClock } from '../../../shared/lib/ru-format.ts';
import { StoryReplyPreview } from '../../stories/components/StoryReplyPreview.tsx';
import { useLongPress } from '../hooks/use-long-press.ts';
import { extractPostIds } from '../lib/media-links.ts';
import type { DisplayMessage, MessageStatus } from '../lib/message-status.ts';
import { messengerStrings } from '../strings.ts';
import { Markdown } from './Markdown.tsx';
import styles from './MessageBubble.module.css';
import { MessageFiles } from './MessageFiles.tsx';
import { MessageReactions } from './MessageReactions.tsx';
import { PostPreviewCard } from './PostPreviewCard.tsx';

const STATUS_MARK: Record<MessageStatus, LucideIcon> = {
  pending: Clock,
  failed: CircleAlert,
  sent: Check,
  delivered: CheckCheck,
  read: CheckCheck,
};

/** Only read and failed marks are tinted; the others keep the meta line's muted colour. */
const STATUS_TONE: Record<MessageStatus, string | undefined> = {
  pending: undefined,
  failed: styles.failed,
  sent: undefined,
  delivered: undefined,
  read: styles.read,
};

interface Props {
  item: DisplayMessage;
  own: boolean;
  onMenu: (item: DisplayMessage, at: { x: number; y: number }) => void;
  onResend: (tempId: string) => void;
  ownId: number;
  onReact: (item: DisplayMessage, reaction: ReactionKind, on: boolean) => void;
  onOpenMedia: (item: DisplayMessage, index: number) => void;
  /** A tap on a reply's quote: show the original. */
  onJumpTo?: (messageId: number) => void;
}

export const MessageBubble = memo(function MessageBubble({
  item,
  own,
  onMenu,
  onResend,
  ownId,
  onReact,
  onOpenMedia,
  onJumpTo,
}: Props) {
  const { message, status } = item;
  const longPress = useLongPress((at) => onMenu(item, at));
  const postIds = extractPostIds(message.content).slice(0, 3);
  return (
    <li
      className={`${styles.row} ${own ? styles.own : styles.theirs}`}
      data-testid="message"
      data-status={status ?? undefined}
      data-message-id={message.id > 0 ? message.id : undefined}
      id={message.id > 0 ? `message-${message.id}` : undefined}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: right-click and long press are shortcuts; the ⋯ button offers the same menu to keyboards. */}
      <div
        className={styles.bubble}
        {...longPress}
        onContextMenu={(event) => {
          event.preventDefault();
          onMenu(item, { x: event.clientX, y: event.clientY });
        }}
      >
        {message.is_forwarded && message.forwarded_from_username ? (
          <p className={styles.forwarded}>
            {messengerStrings.forwardedFrom(message.forwarded_from_username)}
          </p>
        ) : null}
        {message.reply_to ? (
          <button
            type="button"
            className={styles.quote}
            data-testid="reply-quote"
            onClick={() => message.reply_to && onJumpTo?.(message.reply_to.id)}
          >
            <strong>{message.reply_to.sender_name}</strong>
            <span>
              {message.reply_to.is_deleted
                ? messengerStrings.messageDeleted
                : message.reply_to.content.slice(0, 80)}
            </span>
          </button>
        ) : null}
        {message.story ? <StoryReplyPreview story={message.story} /> : null}
        {message.files.length > 0 ? (
          <MessageFiles files={message.files} onOpen={(index) => onOpenMedia(item, index)} />
        ) : null}
        {message.message_type === 'call' ? (
          <p className={styles.callEntry} data-testid="call-entry">
            <PhoneCall size={16} aria-hidden="true" />
            {message.content}
          </p>
        ) : message.content ? (
          <Markdown source={message.content} />
        ) : null}
        {postIds.map((id) => (
          <PostPreviewCard key={id} postId={id} />
        ))}
        {message.reactions && message.reactions.length > 0 ? (
          <MessageReactions
            reactions={message.reactions}
            ownId={ownId}
            onToggle={(reaction, on) => onReact(item, reaction, on)}
          />
        ) : null}
        <span className={styles.meta}>
          {message.is_edited ? <span>{messengerStrings.edited}</span> : null}
          <time dateTime={message.created_at}>{formatClock(Date.parse(message.created_at))}</time>
          {status ? (
            <span
              className={[styles.status, STATUS_TONE[status]].filter(Boolean).join(' ')}
              role="img"
              aria-label={messengerStrings.status[status]}
              title={messengerStrings.status[status]}
            >
              {createElement(STATUS_MARK[status], { size: 14, 'aria-hidden': true })}
            </span>
          ) : null}
        </span>
        <button
          type="button"
          className={styles.more}
          aria-label={messengerStrings.messageActions}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            onMenu(item, { x: box.left, y: box.bottom });
          }}
        >
          <Ellipsis size={16} aria-hidden="true" />
        </button>
      </div>
      {status === 'failed' && item.tempId ? (
        <button type="button" className={styles.resend} onClick={() => onResend(item.tempId ?? '')}>
          {messengerStrings.resend}
        </button>
      ) : null}
    </li>
  );
});
