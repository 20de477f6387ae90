import { type PointerEvent, useRef } from 'react';

/** Spec-like Telegram feel: a still finger for half a second opens the menu. */
export const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE_PX = 10;
const CLICK_AFTER_RELEASE_MS = 400;

/**
 * A long press with touch or pen (the mouse has the right button): calls `onLongPress` at the finger and
 * swallows the click that follows the release, so the press does not also open a photo or a link.
 */
export function useLongPress(onLongPress: (at: { x: number; y: number }) => void) {
  const state = useRef<{ timer: number; x: number; y: number; fired: boolean; releasedAt: number } | null>(
    null,
  );
  const cancel = () => {
    if (state.current) window.clearTimeout(state.current.timer);
  };
  return {
    onPointerDown: (event: PointerEvent) => {
      // A new press starts afresh: a long press whose release produced no click (the menu opened over it)
      // must not swallow the next tap, a reaction chip's or a play button's, whatever the pointer.
      cancel();
      state.current = null;
      if (event.pointerType === 'mouse') return;
      const { clientX: x, clientY: y } = event;
      const entry = { x, y, fired: false, timer: 0, releasedAt: 0 };
      entry.timer = window.setTimeout(() => {
        entry.fired = true;
        onLongPress({ x, y });
      }, LONG_PRESS_MS);
      state.current = entry;
    },
    onPointerMove: (event: PointerEvent) => {
      const s = state.current;
      if (!s || s.fired) return;
      if (Math.hypot(event.clientX - s.x, event.clientY - s.y) > MOVE_TOLERANCE_PX) cancel();
    },
    onPointerUp: () => {
      cancel();
      if (state.current) state.current.releasedAt = performance.now();
    },
    onPointerCancel: cancel,
    onClickCapture: (event: React.MouseEvent) => {
      // Only the click of the lifted finger itself (it follows the release at once).
      const s = state.current;
      if (s?.fired && performance.now() - s.releasedAt < CLICK_AFTER_RELEASE_MS) {
        event.preventDefault();
        event.stopPropagation();
        state.current = null;
      }
    },
  };
}
