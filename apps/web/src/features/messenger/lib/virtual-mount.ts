import { elementScroll, observeElementRect, type Rect, type Virtualizer } from '@tanstack/react-virtual';

// The virtualizer's mount, without a layout of its own. Its defaults read the scroller's size and write its
// scroll offset as it mounts, in React's commit: each a forced layout of the whole page inside that task (18
// ms of a 23 ms task on /messenger's first visit, unthrottled; ~70 ms at Lighthouse's 4x CPU, on the chat and
// group pages too, where the list sits under the chat). The frame lays the page out anyway, right after.

/**
 * The scroller's size: the list starts from its `initialRect`, and the ResizeObserver's first report, which
 * comes right after the frame's own layout, gives the real size. Without a ResizeObserver (old engines,
 * jsdom) it is the virtualizer's default, which reads the size at once.
 */
export function observeRectAfterLayout(
  instance: Virtualizer<HTMLDivElement, Element>,
  cb: (rect: Rect) => void,
): undefined | (() => void) {
  const element = instance.scrollElement;
  const Observer = instance.targetWindow?.ResizeObserver;
  if (!element || !Observer) return observeElementRect(instance, cb);
  const observer = new Observer(() =>
    cb({ width: Math.round(element.clientWidth), height: Math.round(element.clientHeight) }),
  );
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

const mounted = new WeakSet<object>();

/**
 * The virtualizer's scroll write, except its first one when that is to the top: a new scroller is already
 * there, and writing 0 would only lay the page out to clamp it. Every later write (scrolling to a chat) is
 * the virtualizer's own.
 */
export function scrollAfterMount(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<HTMLDivElement, Element>,
): void {
  const first = !mounted.has(instance);
  mounted.add(instance);
  if (first && offset + (options.adjustments ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}
