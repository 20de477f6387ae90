/**
 * Runs `run` once the page is idle (at the latest after `timeout` ms), in a task of its own; returns the
 * cancel. Work the first paint does not need (the socket, shell hosts' code, tones, settings) waits here so
 * it neither delays that paint nor joins the first long task (Lighthouse's Total Blocking Time).
 */
export function whenIdle(run: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(() => run(), { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, Math.min(timeout, 200));
  return () => window.clearTimeout(id);
}
