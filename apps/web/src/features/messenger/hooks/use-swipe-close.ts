import { useDrag } from '@use-gesture/react';
import { useEffect, useRef, useState } from 'react';
import { ClickBlocker, swipeCloses, swipeStarted } from '../lib/gestures.ts';

/**
 * Narrow screens: a swipe right of more than 80 px (after a 10 px start) closes the full-screen
 * chat; after any swipe, clicks during the next 500 ms are swallowed so the lifted finger opens nothing.
 */
export function useSwipeClose(enabled: boolean, onClose: () => void) {
  const [offset, setOffset] = useState(0);
  const started = useRef(false);
  const blocker = useRef(new ClickBlocker());
  // Mirrors the blocker for the page (`data-clicks-blocked` = when the block ends), so a reader can time a click
  // against the block itself and wait for clicks to work again.
  const [blockedUntil, setBlockedUntil] = useState<number | null>(null);
  useEffect(() => {
    if (blockedUntil === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      if (blocker.current.blocked) timer = setTimeout(check, 50);
      else setBlockedUntil(null);
    };
    timer = setTimeout(check, 50);
    return () => clearTimeout(timer);
  }, [blockedUntil]);
  const bind = useDrag(
    ({ first, last, movement: [mx, my] }) => {
      if (first) started.current = false;
      if (!started.current && swipeStarted(mx, my)) started.current = true;
      if (started.current) setOffset(Math.max(0, mx));
      if (last) {
        // Only a real swipe swallows the click that follows; taps and mouse clicks pass.
        if (started.current) {
          blocker.current.block();
          setBlockedUntil(blocker.current.blockedUntil);
        }
        if (swipeCloses(started.current, mx)) onClose();
        started.current = false;
        setOffset(0);
      }
    },
    // No `filterTaps`: use-gesture then eats, in the capture phase, every click whose pointer sequence it did
    // not see as a tap, and with `pointer.touch` it sees touches only: a mouse or pen click (a touch laptop, a
    // test) on a reaction chip or a play button inside the chat never arrived. The blocker above does its job.
    { enabled, pointer: { touch: true }, axis: 'lock' },
  );
  return { bind, offset, blockedUntil, clicksBlocked: () => blocker.current.blocked };
}
