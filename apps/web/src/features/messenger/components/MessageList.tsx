import type { ReactionKind } from '@kadr/contract/browser';
import { ChevronDown } from 'lucide-react';
import { type UIEvent, useCallback, useMemo, useRef } from 'react';
import { useStableCallback } from '../../../shared/lib/use-stable-callback.ts';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { useToggleReaction } from '../api/reactions.ts';
import { useStickToBottom } from '../hooks/use-stick-to-bottom.ts';
import { authorMarks } from '../lib/author-runs.ts';
import type { DisplayMessage } from '../lib/message-status.ts';
import { useReactionPicker } from '../store/reaction-picker.ts';
import { messengerStrings } from '../strings.ts';
import { MessageBubble } from './MessageBubble.tsx';
import styles from './MessageList.module.css';
import { ReactionBar } from './ReactionBar.tsx';
import { chatStrings } from './strings.ts';

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
  onDiscard?: (tempId: string) => void;
  onOpenMedia: (item: DisplayMessage, index: number) => void;
  onJumpTo?: (messageId: number) => void;
  /** A group or channel: other members' messages show their author. */
  authors?: boolean;
  /** The message a search or a quote led to, marked for a moment. */
  highlightId?: number | null;
  /** Newer messages exist past the newest shown (a window opened around a found message). */
  hasNewer?: boolean;
  onLoadNewer?: () => void;
  /** The jump-to-bottom button when newer messages exist past the window: back to the live end. */
  onBackToLatest?: () => void;
}

/**
 * The history, newest at the bottom. The scroller is `column-reverse`, so it starts at the bottom
 * and older pages added at the top leave the reader's position untouched. Sending brings the view to
 * the new message; scrolled up, a button with the count of new messages brings it back down.
 */
export function MessageList({
  items,
  ownId,
  hasMore,
  loadingOlder,
  label,
  onLoadOlder,
  authors = false,
  highlightId = null,
  hasNewer = false,
  onLoadNewer,
  onBackToLatest,
  onMenu,
  onResend,
  onDiscard,
  onOpenMedia,
  onJumpTo,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // The bubbles are memoised: the window's inline handlers, new on each of its renders (the voice chat's
  // provider arriving, a send's status), would render every bubble again.
  const stableDiscard = useStableCallback((tempId: string) => onDiscard?.(tempId));
  const stableJumpTo = useStableCallback((messageId: number) => onJumpTo?.(messageId));
  const handlers = {
    onMenu: useStableCallback(onMenu),
    onResend: useStableCallback(onResend),
    onOpenMedia: useStableCallback(onOpenMedia),
    onDiscard: onDiscard ? stableDiscard : undefined,
    onJumpTo: onJumpTo ? stableJumpTo : undefined,
  };
  const stick = useStickToBottom(scroller, items, ownId);
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      const el = event.currentTarget;
      // scrollTop is 0 at the bottom and negative upwards in a column-reverse scroller.
      const fromTop = el.scrollHeight - el.clientHeight - Math.abs(el.scrollTop);
      if (hasMore && fromTop < LOAD_OLDER_PX) onLoadOlder();
      if (hasNewer && Math.abs(el.scrollTop) < LOAD_OLDER_PX) onLoadNewer?.();
      stick.onScroll();
    },
    [hasMore, onLoadOlder, hasNewer, onLoadNewer, stick.onScroll],
  );
  const me = useCurrentUser();
  const toggle = useToggleReaction({ id: ownId, name: me?.name ?? '' });
  const onReact = useCallback(
    (item: DisplayMessage, reaction: ReactionKind, on: boolean) =>
      toggle.mutate({ messageId: item.message.id, reaction, on, before: item.message.reactions ?? [] }),
    [toggle.mutate],
  );
  const picker = useReactionPicker();
  const picking = picker.open ? items.find((i) => i.message.id === picker.open?.messageId) : undefined;
  const marks = useMemo(() => (authors ? authorMarks(items, ownId) : null), [authors, items, ownId]);
  const showJump = stick.away || hasNewer;

  return (
    <div className={styles.wrap}>
      <div
        ref={scroller}
        className={styles.scroller}
        onScroll={onScroll}
        data-testid="message-scroller"
        data-away={stick.away || undefined}
      >
        <ol className={styles.list} aria-label={label}>
          {!hasMore ? <li className={styles.start}>{messengerStrings.conversationStart}</li> : null}
          {loadingOlder ? (
            <li className={styles.start} role="status" aria-label={messengerStrings.loading}>
              <Spinner />
            </li>
          ) : null}
          {items.map((item) => (
            <MessageBubble
              key={item.key}
              item={item}
              own={item.message.sender_id === ownId}
              ownId={ownId}
              onReact={onReact}
              author={marks?.get(item.key)}
              highlighted={highlightId !== null && item.message.id === highlightId}
              {...handlers}
            />
          ))}
        </ol>
      </div>
      {showJump ? (
        <button
          type="button"
          className={styles.jump}
          data-testid="jump-to-bottom"
          aria-label={stick.unseen > 0 ? chatStrings.jumpToNewest(stick.unseen) : chatStrings.jumpToBottom}
          onClick={() => {
            // From a window around a found message: back to the live history, at its newest end.
            if (hasNewer && onBackToLatest) onBackToLatest();
            stick.toBottom(!hasNewer);
          }}
        >
          <ChevronDown size={22} aria-hidden="true" />
          {stick.unseen > 0 ? (
            <span className={styles.jumpCount} aria-hidden="true">
              {stick.unseen > 99 ? '99+' : stick.unseen}
            </span>
          ) : null}
        </button>
      ) : null}
      {picker.open && picking ? (
        <ReactionBar
          at={picker.open.at}
          mine={(reaction) =>
            picking.message.reactions?.some(
              (r) => r.reaction === reaction && r.users.some((u) => u.id === ownId),
            ) ?? false
          }
          onPick={(reaction, on) => onReact(picking, reaction, on)}
          onClose={picker.close}
        />
      ) : null}
    </div>
  );
}
