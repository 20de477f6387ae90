/**
 * Ends the current task and resumes in a new one, ahead of other waiting work where the browser allows it
 * (`scheduler.yield()`, Chromium 129+; a message to itself elsewhere, as React's scheduler does — a zero
 * timeout would be clamped to a second or more in a hidden tab). Starting a request costs the main thread
 * several milliseconds (the request is built and handed to the network process); a React commit whose
 * effects start four queries paid that four times inside one long task (a first visit's traces: 11–13 ms a
 * `fetch` at 4× CPU). Each request started after a yield is a short task of its own, and input can be handled
 * between them.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
