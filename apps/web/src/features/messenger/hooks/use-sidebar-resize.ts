import { type KeyboardEvent, type PointerEvent, useCallback, useRef } from 'react';
import { useMessengerUi } from '../store/messenger-ui.ts';

/** Drag or arrow-key resizing of the chat list, kept between 20% and 40% of the window (spec §2.6). */
export function useSidebarResize() {
  const fraction = useMessengerUi((s) => s.sidebarFraction);
  const setFraction = useMessengerUi((s) => s.setSidebarFraction);
  const origin = useRef<{ x: number; fraction: number } | null>(null);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      event.currentTarget.setPointerCapture(event.pointerId);
      origin.current = { x: event.clientX, fraction };
    },
    [fraction],
  );
  const onPointerMove = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      if (!origin.current) return;
      setFraction(origin.current.fraction + (event.clientX - origin.current.x) / window.innerWidth);
    },
    [setFraction],
  );
  const onPointerUp = useCallback(() => {
    origin.current = null;
  }, []);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key === 'ArrowLeft') setFraction(fraction - 0.01);
      else if (event.key === 'ArrowRight') setFraction(fraction + 0.01);
    },
    [fraction, setFraction],
  );
  return { fraction, handlers: { onPointerDown, onPointerMove, onPointerUp, onKeyDown } };
}
