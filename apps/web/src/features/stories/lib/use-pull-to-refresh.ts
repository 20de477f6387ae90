import { type RefObject, useEffect, useRef, useState } from 'react';

/** Whether the element or any scrolling ancestor is scrolled away from its top. */
function scrolledDown(el: HTMLElement): boolean {
  for (let node: HTMLElement | null = el; node; node = node.parentElement)
    if (node.scrollTop > 0) return true;
  return (document.scrollingElement?.scrollTop ?? 0) > 0;
}

/**
 * Pull-to-refresh on a scroll container (spec §9: stories threshold 70, max 140): a downward touch drag
 * from the top, mostly vertical, shows `pull` (damped, capped at `max`); releasing past `threshold` refreshes.
 */
export function usePullToRefresh(
  ref: RefObject<HTMLElement | null>,
  onRefresh: () => Promise<unknown>,
  { threshold, max }: { threshold: number; max: number },
) {
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const state = useRef<{ x: number; y: number; active: boolean; pull: number } | null>(null);
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onStart = (e: TouchEvent) => {
      const t = e.touches[0];
      if (!t || e.touches.length > 1 || scrolledDown(el)) return;
      state.current = { x: t.clientX, y: t.clientY, active: false, pull: 0 };
    };
    const onMove = (e: TouchEvent) => {
      const s = state.current;
      const t = e.touches[0];
      if (!s || !t) return;
      const dx = t.clientX - s.x;
      const dy = t.clientY - s.y;
      if (!s.active) {
        if (Math.abs(dy) < 8 && Math.abs(dx) < 8) return;
        if (dy <= 0 || Math.abs(dx) > Math.abs(dy)) {
          state.current = null;
          return;
        }
        s.active = true;
      }
      s.pull = Math.min(max, dy * 0.6);
      setPull(s.pull);
      if (e.cancelable) e.preventDefault();
    };
    const onEnd = () => {
      const s = state.current;
      state.current = null;
      if (!s?.active) return;
      if (s.pull >= threshold) {
        setRefreshing(true);
        setPull(threshold);
        refresh
          .current()
          .catch(() => undefined)
          .finally(() => {
            setRefreshing(false);
            setPull(0);
          });
      } else setPull(0);
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [ref, threshold, max]);

  return { pull, refreshing };
}
