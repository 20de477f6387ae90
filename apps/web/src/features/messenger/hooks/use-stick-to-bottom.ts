import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { DisplayMessage } from '../lib/message-status.ts';

/** Farther than this from the newest message, the jump-to-bottom button shows. */
export const JUMP_BUTTON_FROM_PX = 160;

/** How many messages after `anchorKey` came from others (those the reader has not scrolled down to). */
export function unseenBelow(
  items: readonly DisplayMessage[],
  anchorKey: string | null,
  ownId: number,
): number {
  if (anchorKey === null) return 0;
  const at = items.findIndex((item) => item.key === anchorKey);
  if (at < 0) return 0;
  let count = 0;
  for (let i = at + 1; i < items.length; i += 1)
    if ((items[i] as DisplayMessage).message.sender_id !== ownId) count += 1;
  return count;
}

/**
 * The history's place relative to its newest message (the scroller is `column-reverse`: scrollTop 0 is the
 * bottom, upwards is negative). One's own new message always brings the view down to it, as in Telegram;
 * while the reader is scrolled up, others' new messages are counted for the jump-to-bottom button.
 */
export function useStickToBottom(
  scroller: RefObject<HTMLDivElement | null>,
  items: readonly DisplayMessage[],
  ownId: number,
) {
  const [away, setAway] = useState(false);
  // The newest message the reader has seen at the bottom; what came after it from others is "new".
  const [anchorKey, setAnchorKey] = useState<string | null>(null);
  const last = items.at(-1);
  const lastKey = last?.key ?? null;
  const awayRef = useRef(false);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const isAway = Math.abs(el.scrollTop) > JUMP_BUTTON_FROM_PX;
    if (isAway !== awayRef.current) {
      awayRef.current = isAway;
      setAway(isAway);
    }
    if (!isAway) setAnchorKey(lastKey);
  }, [scroller, lastKey]);

  const toBottom = useCallback(
    (smooth = true) => {
      const el = scroller.current;
      if (!el) return;
      if (smooth && typeof el.scrollTo === 'function') el.scrollTo({ top: 0, behavior: 'smooth' });
      else el.scrollTop = 0;
      awayRef.current = false;
      setAway(false);
      setAnchorKey(lastKey);
    },
    [scroller, lastKey],
  );

  // A new message at the bottom: one's own (just sent, still pending) brings the view down to it; others'
  // keep the reader where they are when scrolled up, and count as unseen.
  const previousLast = useRef(lastKey);
  useLayoutEffect(() => {
    if (lastKey === previousLast.current) return;
    previousLast.current = lastKey;
    if (!last) return;
    if (last.message.sender_id === ownId && last.tempId !== null) toBottom(false);
    else if (!awayRef.current) setAnchorKey(lastKey);
  }, [lastKey, last, ownId, toBottom]);

  useEffect(() => {
    if (anchorKey === null && lastKey !== null && !awayRef.current) setAnchorKey(lastKey);
  }, [anchorKey, lastKey]);

  return { away, unseen: away ? unseenBelow(items, anchorKey, ownId) : 0, onScroll, toBottom };
}
