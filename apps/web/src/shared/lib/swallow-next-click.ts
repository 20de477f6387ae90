/** How long after a gesture closed an overlay its trailing click is still the same finger's. */
export const GHOST_CLICK_MS = 500;

/**
 * Swallows the next click on the page within `ms`. A tap that closes an overlay on `pointerup` is followed
 * by a click (and, for touch, compatibility mouse events) that the browser aims at whatever is under the
 * finger once the overlay is gone: without this the tap that closed the story viewer also opened the post
 * tile beneath it.
 */
export function swallowNextClick(ms: number = GHOST_CLICK_MS): void {
  const stop = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    window.removeEventListener('click', stop, true);
  };
  window.addEventListener('click', stop, true);
  window.setTimeout(() => window.removeEventListener('click', stop, true), ms);
}
