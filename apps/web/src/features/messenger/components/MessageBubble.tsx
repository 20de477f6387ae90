import type { ReactionKind } from '@kadr/contract';
import { callEntrySeenBy } from '@kadr/contract/browser';
import { Check, CheckCheck, CircleAlert, Clock, Ellipsis, type LucideIcon, PhoneCall } from 'lucide-react';
import { createElement, memo } from 'react';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { formatClock } from '../../../shared/lib/ru-format.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { StoryReplyPreview } from '../../stories/components/StoryReplyPreview.tsx';
import { useLongPress } from '../hooks/use-long-press.ts';
import type { AuthorMark } from '../lib/author-runs.ts';
import { extractPostIds } from '../lib/media-links.ts';
import type { DisplayMessage, MessageStatus } from '../lib/message-status.ts';
import { messengerStrings } from '../strings.ts';
import { Markdown } from './Markdown.tsx';
import styles from './MessageBubble.module.css';
import { MessageFiles } from './MessageFiles.tsx';
import { MessageReactions } from './MessageReactions.tsx';
import { PostPreviewCard } from './PostPreviewCard.tsx';
import { chatStrings } from './strings.ts';

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
  /** In a group or channel, another member's message: its author's name and avatar (Telegram-style). */
  author?: AuthorMark;
  /** A failed message whose refusal is final: it can only be removed. */
  onDiscard?: (tempId: string) => void;
  /** Briefly marked: the message a search or a quote jumped to. */
  highlighted?: boolean;
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
  author,
  onDiscard,
  highlighted = false,
}: Props) {
  const { message, status, failure } = item;
  const longPress = useLongPress((at) => onMenu(item, at));
  if (message.message_type === 'service')
    return (
      <li
        className={styles.serviceRow}
        data-testid="service-line"
        data-message-id={message.id > 0 ? message.id : undefined}
        id={message.id > 0 ? `message-${message.id}` : undefined}
      >
        <span className={styles.service}>{message.content}</span>
      </li>
    );
  const postIds = extractPostIds(message.content).slice(0, 3);
  const bubble = (
    // biome-ignore lint/a11y/noStaticElementInteractions: right-click and long press are shortcuts; the ⋯ button offers the same menu to keyboards.
    <div
      className={[styles.bubble, highlighted ? styles.highlighted : ''].filter(Boolean).join(' ')}
      {...longPress}
      onContextMenu={(event) => {
        event.preventDefault();
        onMenu(item, { x: event.clientX, y: event.clientY });
      }}
    >
      {author?.name ? (
        <p
          className={styles.author}
          data-testid="message-author"
          style={{ color: `var(--color-author-${author.tone})` }}
        >
          {message.sender_name}
        </p>
      ) : null}
      {message.is_forwarded && message.forwarded_from_username ? (
        <p className={styles.forwarded}>{messengerStrings.forwardedFrom(message.forwarded_from_username)}</p>
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
              : withEmoji(message.reply_to.content.slice(0, 80))}
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
          {callEntrySeenBy(message.content, message.sender_id === ownId)}
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
  );
  return (
    <li
      className={`${styles.row} ${own ? styles.own : styles.theirs}`}
      data-testid="message"
      data-status={status ?? undefined}
      data-highlighted={highlighted || undefined}
      data-message-id={message.id > 0 ? message.id : undefined}
      id={message.id > 0 ? `message-${message.id}` : undefined}
    >
      {author ? (
        <div className={styles.authored}>
          <span className={styles.authorAvatar} data-testid={author.avatar ? 'author-avatar' : undefined}>
            {author.avatar ? (
              <Avatar name={message.sender_name} url={message.sender_avatar_url} size={32} alt="" />
            ) : null}
          </span>
          {bubble}
        </div>
      ) : (
        bubble
      )}
      {status === 'failed' && item.tempId ? (
        <div className={styles.failure} data-testid="send-failure">
          {failure?.error ? (
            <span className={styles.failureReason} role="alert">
              {failure.error}
            </span>
          ) : null}
          {failure?.retryable === false ? (
            <button type="button" className={styles.resend} onClick={() => onDiscard?.(item.tempId ?? '')}>
              {chatStrings.discardFailed}
            </button>
          ) : (
            <button type="button" className={styles.resend} onClick={() => onResend(item.tempId ?? '')}>
              {messengerStrings.resend}
            </button>
          )}
        </div>
      ) : null}
    </li>
  );
});
