/**
 * Runs `run` once the browser has drawn the next frame: a task queued from that frame's animation callback
 * runs after its style, layout and paint. What reads layout (a `focus()`, a measurement) there finds it
 * clean, where in a mount's effect it would lay the page out inside React's commit and lengthen that task
 * (the story viewer's focus: a 39 ms forced layout in a first visit's longest task). Returns the cancel.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: number | undefined;
  const frame = window.requestAnimationFrame(() => {
    timer = window.setTimeout(run, 0);
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}
