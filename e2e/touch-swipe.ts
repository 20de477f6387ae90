/**
 * A finger swipe on `target` (an element, or the first match of a selector): pointer events of type touch from
 * `from` (its centre when absent) by (dx, dy), dispatched in one task — the feed moves only for a swipe under
 * 300 ms, which step-by-step input cannot promise on a loaded machine. PointerEvent exists in all three engines.
 * Self-contained: Playwright (`locator.evaluate`) and the engines suite (`page.evaluate`) send it as source.
 */
export function touchSwipe(
  target: Element | string,
  { dx, dy, from }: { dx: number; dy: number; from?: { x: number; y: number } },
): void {
  const el = typeof target === 'string' ? document.querySelector(target) : target;
  if (!el) throw new Error(`nothing matches ${String(target)}`);
  const box = el.getBoundingClientRect();
  const x = from?.x ?? box.x + box.width / 2;
  const y = from?.y ?? box.y + box.height / 2;
  const fire = (type: string, cx: number, cy: number) =>
    el.dispatchEvent(
      new PointerEvent(type, {
        bubbles: true,
        cancelable: true,
        pointerId: 7,
        pointerType: 'touch',
        isPrimary: true,
        button: 0,
        clientX: cx,
        clientY: cy,
      }),
    );
  fire('pointerdown', x, y);
  for (let i = 1; i <= 4; i++) fire('pointermove', x + (dx * i) / 4, y + (dy * i) / 4);
  fire('pointerup', x + dx, y + dy);
}
