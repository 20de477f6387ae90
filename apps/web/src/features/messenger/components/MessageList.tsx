import { REACTIONS, type ReactionKind } from '@kadr/contract/browser';
import { type UIEvent, useCallback } from 'react';
import { PopupMenu } from '../../../shared/ui/PopupMenu.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { useToggleReaction } from '../api/reactions.ts';
import type { DisplayMessage } from '../lib/message-status.ts';
import { useReactionPicker } from '../store/reaction-picker.ts';
import { messengerStrings } from '../strings.ts';
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
  const me = useCurrentUser();
  const toggle = useToggleReaction({ id: ownId, name: me?.name ?? '' });
  const onReact = useCallback(
    (item: DisplayMessage, reaction: ReactionKind, on: boolean) =>
      toggle.mutate({ messageId: item.message.id, reaction, on, before: item.message.reactions ?? [] }),
    [toggle.mutate],
  );
  const picker = useReactionPicker();
  const picking = picker.open ? items.find((i) => i.message.id === picker.open?.messageId) : undefined;

  return (
    <div className={styles.scroller} onScroll={onScroll} data-testid="message-scroller">
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
            {...handlers}
          />
        ))}
      </ol>
      {picker.open && picking ? (
        <PopupMenu
          label={messengerStrings.react}
          at={picker.open.at}
          items={REACTIONS.map((reaction) => {
            const mine =
              picking.message.reactions?.some(
                (r) => r.reaction === reaction && r.users.some((u) => u.id === ownId),
              ) ?? false;
            return {
              id: reaction,
              label: messengerStrings.reactionNames[reaction],
              onSelect: () => onReact(picking, reaction, !mine),
            };
          })}
          onClose={picker.close}
        />
      ) : null}
    </div>
  );
}
