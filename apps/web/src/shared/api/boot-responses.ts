import { BOOT_GLOBAL, type BootResponses } from './boot-global.ts';

const bootResponses = () => (globalThis as unknown as Record<string, BootResponses | undefined>)[BOOT_GLOBAL];

/**
 * The answer the boot script already asked for this GET (the page's first requests start from
 * index.html, before the scripts arrive), taken once: a later call of the same URL asks the server again.
 */
export function takeBootResponse(url: string): Promise<Response> | undefined {
  const responses = bootResponses();
  const answer = responses?.get(url);
  if (answer) responses?.delete(url);
  return answer;
}

/** How long into the page's life the boot answers nobody took are still the page's first requests. */
export const BOOT_ANSWERS_KEPT_MS = 10_000;

/**
 * Forgets the boot answers no call has taken, once the page is past its start. Called when the socket
 * connects: its handlers refetch what it may have missed, and an answer from the page's start — one the
 * page did not need, its data restored from the device — would bring back the state of then. A socket that
 * connects at a cold start's first idle moment leaves them to the screens still loading their code.
 */
export function dropBootResponses(pageAgeMs: number = performance.now()): void {
  if (pageAgeMs > BOOT_ANSWERS_KEPT_MS) bootResponses()?.clear();
}

/**
 * Forgets every boot answer nobody took: called before any write, which may change what any of them says (a
 * group joined from its preview, then the chat list the page's start asked for, still untaken, would show the
 * list without it).
 */
export function forgetBootResponses(): void {
  bootResponses()?.clear();
}

/** A boot answer being read by one call; `done` once its body is read (or the call gave up on it). */
export interface BootRead {
  response: Promise<Response | null>;
  done: () => void;
}

/**
 * Reads a taken boot answer for a call that may be aborted. A call aborted before it has read the answer
 * (every component asking for it went away while the page was still rendering, e.g. the navigation badge
 * before the messenger's screen mounted) hands an unread copy back at once, so the next call of the same
 * URL takes it instead of asking the server a second time. Resolves null when the boot request failed (the
 * caller asks for itself); rejects with an AbortError when aborted.
 */
export function readBootResponse(url: string, answer: Promise<Response>, signal?: AbortSignal): BootRead {
  // The spare copy is cut before anyone reads the body (a read body cannot be copied).
  const spare = answer.then((r) => r.clone());
  spare.catch(() => undefined);
  let onAbort: (() => void) | null = null;
  const done = () => {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    onAbort = null;
  };
  const response = new Promise<Response | null>((resolve, reject) => {
    onAbort = () => {
      done();
      bootResponses()?.set(url, spare);
      reject(new DOMException('The call was aborted', 'AbortError'));
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, () => {
      done();
      resolve(null);
    });
  });
  return { response, done };
}
