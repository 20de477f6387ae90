import { useEffect } from 'react';
import { holdUntilPageShown, markPageShown } from '../../shared/lib/when-idle.ts';

/** How long the frame may stay over the app at most after its first render (a page that never says ready). */
const FRAME_AT_MOST_MS = 4000;

/** A person's first input: the largest paint of the page is settled then (browsers stop reporting it). */
const FIRST_INPUT = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

let overlay: HTMLElement | null = null;

/**
 * Keeps the HTML's frame (app/boot/frame.ts) on screen over the app until the page asked for has rendered
 * (`usePageShown`): React's first render replaces `#root` and would otherwise flash the shell's spinners
 * between the frame and the page. The frame becomes a fixed layer over the app, so taking it away moves
 * nothing (no layout shift).
 */
export function liftFrame(root: HTMLElement): void {
  const frame = root.firstElementChild;
  if (!(frame instanceof HTMLElement) || !frame.dataset.frame) return;
  // What waits for idle (the socket, the shell's hosts) waits for the page too (shared/lib/when-idle.ts).
  holdUntilPageShown();
  frame.classList.add('kf-over');
  document.body.appendChild(frame);
  overlay = frame;
  setTimeout(dropFrame, FRAME_AT_MOST_MS);
}

/**
 * The page has rendered: the frame goes out of sight at once and out of the document at the person's first
 * input. Until then it stays, transparent and letting every pointer through: the pictures the boot script
 * painted into it (the first tile, the feed's first photo) were the page's largest paint, and a removed
 * image makes the browser report the app's copy of the same picture, painted later, as the largest paint
 * instead.
 */
export function dropFrame(): void {
  const frame = overlay;
  overlay = null;
  markPageShown();
  if (!frame) return;
  frame.classList.add('kf-gone');
  delete frame.dataset.frame;
  const remove = () => {
    frame.remove();
    for (const type of FIRST_INPUT) window.removeEventListener(type, remove, true);
    document.removeEventListener('visibilitychange', remove);
  };
  for (const type of FIRST_INPUT) window.addEventListener(type, remove, { capture: true, passive: true });
  document.addEventListener('visibilitychange', remove);
}

/**
 * A page's main view calls it: once it has rendered (and is `ready`: /home opened on a story waits for the
 * story's viewer), the frame over it goes.
 */
export function usePageShown(ready = true): void {
  useEffect(() => {
    if (!ready) return;
    // After the browser had a chance to paint the page under the frame.
    const id = requestAnimationFrame(() => dropFrame());
    return () => cancelAnimationFrame(id);
  }, [ready]);
}
