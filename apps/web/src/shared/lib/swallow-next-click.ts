/** How long after a gesture closed an overlay its trailing click is still the same finger's. */
export const GHOST_CLICK_MS = 500;

/**
 * Swallows the next click on the page within `ms`. A tap that closes an overlay on `pointerup` is followed
 * by a click (and, for touch, compatibility mouse events) that the browser aims at whatever is under the
 * finger once the overlay is gone: without this the tap that closed the story viewer also opened the post
 * tile beneath it.
 */
export function swallowNextClick(ms: number = GHOST_CLICK_MS): void {
  // The timer touches nothing but its own controller: it may fire after the page (or a test's document) is
  // gone, when neither the global `window` nor that window's own methods are there any more.
  const done = new AbortController();
  const stop = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    done.abort();
  };
  window.addEventListener('click', stop, { capture: true, signal: done.signal });
  setTimeout(() => done.abort(), ms);
}
