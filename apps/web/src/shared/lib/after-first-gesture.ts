/**
 * Runs `run` once the person has pressed, tapped or typed in the page (at once if they already have), the
 * gesture that also lets the page play sound (the browsers' autoplay policy: `navigator.userActivation`).
 * Work that only serves sound — the call tones — waits for it rather than taking the main thread while the
 * first page loads, when a ring could not be heard anyway. Returns the cancel.
 */
export function afterFirstGesture(run: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  if (navigator.userActivation?.hasBeenActive) {
    run();
    return () => undefined;
  }
  const events = ['pointerdown', 'keydown'] as const;
  const stop = () => {
    for (const name of events) window.removeEventListener(name, onGesture, true);
  };
  function onGesture() {
    stop();
    run();
  }
  for (const name of events) window.addEventListener(name, onGesture, { capture: true, passive: true });
  return stop;
}
