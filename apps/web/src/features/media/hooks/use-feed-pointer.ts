import { type PointerEvent, useCallback, useMemo, useRef, useState } from 'react';
import { classifyFeedSwipe, createWheelStepper, dragAxis, type Step } from '../lib/gestures.ts';
import { pullOffset, pullTriggersRefresh } from '../lib/pull-refresh.ts';
import type { PostGestureTarget, RegisterGestureTarget } from './gesture-target.ts';

interface Options {
  atFirst: boolean;
  atLast: boolean;
  onStep: (step: Step) => void;
  /** Pull-to-refresh and swipe-down on the first post; absent where the list cannot refresh. */
  onRefresh?: () => void;
}

interface Press {
  id: number;
  x: number;
  y: number;
  at: number;
  axis: 'x' | 'y' | null;
}

/** Controls, links and overlays with their own buttons never start a feed gesture. */
const ownsPointer = (target: EventTarget | null) =>
  target instanceof Element &&
  target.closest('button, a, input, textarea, select, [data-no-gesture]') !== null;

/**
 * One pointer tracker for the whole feed: it decides the axis once a press leaves the tap slop, moves
 * the feed on vertical swipes, pulls to refresh on the first post, hands horizontal drags to a
 * carousel and everything else (taps, double taps, holds) to the post on screen.
 */
export function useFeedPointer({ atFirst, atLast, onStep, onRefresh }: Options) {
  const target = useRef<PostGestureTarget | null>(null);
  const press = useRef<Press | null>(null);
  const [dragY, setDragY] = useState(0);
  const [pull, setPull] = useState(0);
  const wheel = useMemo(() => createWheelStepper(), []);

  const register: RegisterGestureTarget = useCallback((next) => {
    target.current = next;
    return () => {
      if (target.current === next) target.current = null;
    };
  }, []);

  const reset = () => {
    press.current = null;
    setDragY(0);
    setPull(0);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0 || ownsPointer(event.target)) return;
    press.current = {
      id: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      at: event.timeStamp,
      axis: null,
    };
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // Synthetic or already released pointers cannot be captured; tracking still works without it.
    }
    target.current?.down();
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const p = press.current;
    if (!p || p.id !== event.pointerId) return;
    const dx = event.clientX - p.x;
    const dy = event.clientY - p.y;
    if (p.axis === null) {
      p.axis = dragAxis(dx, dy);
      if (p.axis !== null) target.current?.cancel();
    }
    if (p.axis === 'x') target.current?.dragX?.(dx);
    if (p.axis === 'y') {
      if (atFirst && dy > 0 && onRefresh) setPull(pullOffset(dy));
      // Past either end the feed follows the finger only a little.
      else setDragY((atFirst && dy > 0) || (atLast && dy < 0) ? dy * 0.25 : dy);
    }
  };

  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    const p = press.current;
    if (!p || p.id !== event.pointerId) return;
    const dx = event.clientX - p.x;
    const dy = event.clientY - p.y;
    const elapsed = event.timeStamp - p.at;
    if (p.axis === null) target.current?.up(performance.now());
    else if (p.axis === 'x') target.current?.endX?.(dx);
    else {
      const step = classifyFeedSwipe(dy, elapsed);
      if (atFirst && dy > 0 && onRefresh && (step === -1 || pullTriggersRefresh(dy))) onRefresh();
      else if (step !== 0) onStep(step);
    }
    reset();
  };

  const onPointerCancel = () => {
    target.current?.cancel();
    reset();
  };

  const onWheel = (event: { deltaY: number; timeStamp: number }) => {
    const step = wheel(event.deltaY, event.timeStamp);
    if (step !== 0) onStep(step);
  };

  return {
    register,
    dragY,
    pull,
    dragging: press.current?.axis === 'y',
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel, onWheel },
  };
}
