import type { Rect, Virtualizer } from '@tanstack/react-virtual';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { observeRectAfterLayout, scrollAfterMount } from './virtual-mount.ts';

/** A scroller whose size reads are counted (each one is a layout when the page is dirty). */
function scroller(width: number, height: number) {
  const element = document.createElement('div');
  const reads = { count: 0 };
  const counted = (value: number) => () => {
    reads.count += 1;
    return value;
  };
  Object.defineProperty(element, 'clientWidth', { get: counted(width) });
  Object.defineProperty(element, 'clientHeight', { get: counted(height) });
  return { element, reads };
}

const instanceOf = (element: HTMLDivElement, targetWindow: unknown) =>
  ({ scrollElement: element, targetWindow, options: {} }) as unknown as Virtualizer<HTMLDivElement, Element>;

afterEach(() => vi.restoreAllMocks());

describe('observeRectAfterLayout', () => {
  it('reads no size as the list mounts; the ResizeObserver report gives it, rounded', () => {
    const { element, reads } = scroller(390.4, 719.6);
    const observers: Array<{ callback: () => void; observed: Element[]; disconnected: boolean }> = [];
    class FakeResizeObserver {
      private readonly entry: (typeof observers)[number];
      constructor(callback: () => void) {
        this.entry = { callback, observed: [], disconnected: false };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.observed.push(target);
      }
      disconnect() {
        this.entry.disconnected = true;
      }
    }
    const rects: Rect[] = [];
    const stop = observeRectAfterLayout(instanceOf(element, { ResizeObserver: FakeResizeObserver }), (r) =>
      rects.push(r),
    );
    expect(reads.count).toBe(0);
    expect(rects).toEqual([]);
    expect(observers[0]?.observed).toEqual([element]);

    observers[0]?.callback();
    expect(rects).toEqual([{ width: 390, height: 720 }]);

    stop?.();
    expect(observers[0]?.disconnected).toBe(true);
  });

  it('without a ResizeObserver it is the virtualizer default: the size is read at once', () => {
    const { element, reads } = scroller(320, 500);
    const rects: Rect[] = [];
    observeRectAfterLayout(instanceOf(element, {}), (r) => rects.push(r));
    expect(reads.count).toBeGreaterThan(0);
    expect(rects).toEqual([{ width: 320, height: 500 }]);
  });
});

describe('scrollAfterMount', () => {
  it('skips only the mount’s write to the top; later writes, and a first one elsewhere, reach the scroller', () => {
    const { element } = scroller(320, 500);
    const scrollTo = vi.fn();
    element.scrollTo = scrollTo as typeof element.scrollTo;
    const instance = { scrollElement: element, options: {} } as unknown as Virtualizer<
      HTMLDivElement,
      Element
    >;
    scrollAfterMount(0, {}, instance);
    expect(scrollTo).not.toHaveBeenCalled();
    scrollAfterMount(0, {}, instance);
    scrollAfterMount(720, { behavior: 'auto' }, instance);
    expect(scrollTo.mock.calls).toEqual([[{ top: 0 }], [{ top: 720, behavior: 'auto' }]]);

    const other = { scrollElement: element, options: {} } as unknown as Virtualizer<HTMLDivElement, Element>;
    scrollAfterMount(144, {}, other);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 144 });
  });
});
