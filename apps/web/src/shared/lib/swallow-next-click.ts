/** How long after a gesture closed an overlay its trailing click is still the same finger's. */
export const GHOST_CLICK_MS = 500;

/**
 * Swallows the next click on the page within `ms`. A tap that closes an overlay on `pointerup` is followed
 * by a click (and, for touch, compatibility mouse events) that the browser aims at whatever is under the
 * finger once the overlay is gone: without this the tap that closed the story viewer also opened the post
 * tile beneath it.
 */
export function swallowNextClick(ms: number = GHOST_CLICK_MS): void {
  // The timer closes over this window, not the global name: it may fire after the page (or a test's
  // document) is gone, and must then remove the listener from the window it was added to.
  const page = window;
  const stop = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    page.removeEventListener('click', stop, true);
  };
  page.addEventListener('click', stop, true);
  page.setTimeout(() => page.removeEventListener('click', stop, true), ms);
}
