import { useEffect } from 'react';

/** How long the frame may stay over the app at most after its first render (a page that never says ready). */
const FRAME_AT_MOST_MS = 4000;

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
  frame.classList.add('kf-over');
  document.body.appendChild(frame);
  overlay = frame;
  setTimeout(dropFrame, FRAME_AT_MOST_MS);
}

export function dropFrame(): void {
  overlay?.remove();
  overlay = null;
}

/** A page's main view calls it: once it has rendered, the frame over it goes. */
export function usePageShown(): void {
  useEffect(() => {
    // After the browser had a chance to paint the page under the frame.
    const id = requestAnimationFrame(() => dropFrame());
    return () => cancelAnimationFrame(id);
  }, []);
}
