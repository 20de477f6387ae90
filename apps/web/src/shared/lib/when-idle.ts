/**
 * Work the first paint does not need (the socket, shell hosts' code, tones, settings, gestures) waits
 * here, so it neither delays that paint nor joins the first long task (Lighthouse's Total Blocking Time).
 *
 * It waits for two things: the page asked for has rendered (`markPageShown`, called when the HTML's frame
 * goes, app/boot/frame-overlay.ts), then an idle period. Idle alone was not enough: on a first visit the
 * browser is idle while it waits for the page's own view chunk, and the hosts' 20-odd chunks then took the
 * six connections the view, its images and the first screen's data needed.
 */
let shown = true;
const waiting = new Set<() => void>();

/** The HTML carried a frame (app/boot/frame-overlay.ts): deferred work waits until the page has rendered. */
export function holdUntilPageShown(): void {
  shown = false;
}

/** The page asked for has rendered (or the frame's time ran out): deferred work may start. */
export function markPageShown(): void {
  if (shown) return;
  shown = true;
  const runs = [...waiting];
  waiting.clear();
  for (const run of runs) run();
}

/** Runs `run` once the page has rendered and is then idle (at the latest `timeout` ms later); returns the cancel. */
export function whenIdle(run: () => void, timeout = 2000): () => void {
  let cancel = () => {};
  const schedule = () => {
    waiting.delete(schedule);
    cancel = idle(run, timeout);
  };
  if (shown) schedule();
  else {
    waiting.add(schedule);
    cancel = () => waiting.delete(schedule);
  }
  return () => cancel();
}

function idle(run: () => void, timeout: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => run(), { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, Math.min(timeout, 200));
  return () => window.clearTimeout(id);
}
