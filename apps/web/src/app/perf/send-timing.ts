import type { KadrSocket } from '../../shared/realtime/socket.ts';

/** Sends still waiting to be answered (socket sends that fell back to HTTP wait here for the POST). */
const MAX_PENDING = 100;
const MESSAGES_POST = /\/api\/v1\/messages(\?|$)/;

export interface SendTiming {
  /** Times each `send-message` emitted on the socket until its ack (wraps the socket's emit once). */
  watchSocket(socket: KadrSocket): void;
  /**
   * Times `POST /messages` until it answers; when it carries the temp_id of a socket send whose ack never
   * came, from that socket send (the whole wait the user saw).
   */
  wrapFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
}

function tempIdOf(body: unknown): string | null {
  if (typeof body === 'object' && body !== null && 'temp_id' in body && typeof body.temp_id === 'string')
    return body.temp_id;
  if (typeof body !== 'string') return null;
  try {
    return tempIdOf(JSON.parse(body));
  } catch {
    return null;
  }
}

/**
 * Message-send samples for the performance helper: sends go over the socket with an ack (ADR 0005) and over
 * HTTP when the socket is down or the ack does not come (messenger/api/socket-send.ts); both are measured
 * here from outside, touching no feature.
 */
export function sendTiming(record: (ms: number) => void, now: () => number): SendTiming {
  const watched = new WeakSet<object>();
  const pending = new Map<string, number>();

  const remember = (tempId: string, at: number) => {
    pending.set(tempId, at);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value as string);
  };

  return {
    watchSocket(socket) {
      if (watched.has(socket)) return;
      watched.add(socket);
      const emit = socket.emit.bind(socket) as (event: string, ...args: unknown[]) => KadrSocket;
      const timed = (event: string, ...args: unknown[]) => {
        const ack = args.at(-1);
        if (event !== 'send-message' || typeof ack !== 'function') return emit(event, ...args);
        const start = now();
        const tempId = tempIdOf(args[0]);
        if (tempId) remember(tempId, start);
        const timedAck = (...answer: unknown[]) => {
          // An ack error is the time-out: the same send goes on over HTTP and is timed there.
          if (!(answer[0] instanceof Error)) {
            record(now() - start);
            if (tempId) pending.delete(tempId);
          }
          return ack(...answer);
        };
        return emit(event, ...args.slice(0, -1), timedAck);
      };
      socket.emit = timed as KadrSocket['emit'];
    },

    wrapFetch(inner) {
      return async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
        if (method !== 'POST' || !MESSAGES_POST.test(url)) return inner(input, init);
        const tempId = tempIdOf(init?.body);
        const start = (tempId ? pending.get(tempId) : undefined) ?? now();
        try {
          return await inner(input, init);
        } finally {
          if (tempId) pending.delete(tempId);
          record(now() - start);
        }
      };
    },
  };
}
