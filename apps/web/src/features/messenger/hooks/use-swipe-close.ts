import { useDrag } from '@use-gesture/react';
import { useRef, useState } from 'react';
import { ClickBlocker, swipeCloses, swipeStarted } from '../lib/gestures.ts';

/**
 * Narrow screens: a swipe right of more than 80 px (after a 10 px start) closes the full-screen
 * chat; clicks during the next 500 ms are swallowed so the lifted finger opens nothing.
 */
export function useSwipeClose(enabled: boolean, onClose: () => void) {
  const [offset, setOffset] = useState(0);
  const started = useRef(false);
  const blocker = useRef(new ClickBlocker());
  const bind = useDrag(
    ({ first, last, movement: [mx, my] }) => {
      if (first) started.current = false;
      if (!started.current && swipeStarted(mx, my)) started.current = true;
      if (started.current) setOffset(Math.max(0, mx));
      if (last) {
        if (swipeCloses(started.current, mx)) {
          blocker.current.block();
          onClose();
        }
        started.current = false;
        setOffset(0);
      }
    },
    { enabled, filterTaps: true, pointer: { touch: true }, axis: 'lock' },
  );
  return { bind, offset, clicksBlocked: () => blocker.current.blocked };
}
