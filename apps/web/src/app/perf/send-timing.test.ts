import type { Message, SendMessageBody } from '@kadr/contract';
import { describe, expect, it, vi } from 'vitest';
import { sendMessage } from '../../features/messenger/api/socket-send.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';
import { jsonResponse } from '../../test/fixtures.ts';
import { PerfStore } from './perf-store.ts';
import { sendTiming } from './send-timing.ts';

const body: SendMessageBody = { other_user_id: 2, content: 'привет', temp_id: 't-1' };
const message = { id: 1, content: 'привет', temp_id: 't-1' } as unknown as Message;

/** A connected socket whose ack to `send-message` comes after `ackAfterMs` of the clock (or an Error). */
function fakeSocket(clock: { ms: number }, answer: { afterMs: number; error?: boolean }) {
  const socket = {
    connected: true,
    timeout() {
      return socket;
    },
    emit(_event: string, _body: unknown, ack: (err: Error | null, result?: unknown) => void) {
      setTimeout(() => {
        clock.ms += answer.afterMs;
        if (answer.error) ack(new Error('operation has timed out'));
        else ack(null, { ok: true, message });
      }, 0);
      return socket;
    },
  };
  return socket as unknown as KadrSocket;
}

function timing() {
  const clock = { ms: 1000 };
  const store = new PerfStore();
  const sends = sendTiming(
    (ms) => store.record('messageSend', ms),
    () => clock.ms,
  );
  return { clock, store, sends };
}

describe('performance helper: message sends', () => {
  it('a socket send records the time from the emit to its ack', async () => {
    const { clock, store, sends } = timing();
    const socket = fakeSocket(clock, { afterMs: 70 });
    sends.watchSocket(socket);
    sends.watchSocket(socket); // once per socket: a second watch must not time the send twice
    const http = vi.fn();
    const sent = await sendMessage(body, { socket: () => socket, http });
    expect(sent.via).toBe('socket');
    expect(http).not.toHaveBeenCalled();
    expect(store.list('messageSend').map((s) => [s.value, s.slow])).toEqual([[70, true]]);
  });

  it('a socket send that falls back to HTTP is one sample, from the emit to the HTTP answer', async () => {
    const { clock, store, sends } = timing();
    const socket = fakeSocket(clock, { afterMs: 10_000, error: true });
    sends.watchSocket(socket);
    const fetch = sends.wrapFetch(async () => {
      clock.ms += 30;
      return jsonResponse({ message });
    });
    const http = async (b: SendMessageBody) =>
      (await fetch('/api/v1/messages', { method: 'POST', body: JSON.stringify(b) })).json() as Promise<{
        message: Message;
      }>;
    const sent = await sendMessage(body, { socket: () => socket, http });
    expect(sent.via).toBe('http');
    expect(store.list('messageSend').map((s) => s.value)).toEqual([10_030]);
  });

  it('an HTTP send alone is timed, and other requests are not', async () => {
    const { clock, store, sends } = timing();
    const fetch = sends.wrapFetch(async () => {
      clock.ms += 20;
      return jsonResponse({});
    });
    await fetch('/api/v1/messages', { method: 'POST', body: JSON.stringify({ ...body, temp_id: 't-2' }) });
    await fetch('/api/v1/messages/chats');
    await fetch('/api/v1/messages/read', { method: 'POST', body: '{}' });
    expect(store.list('messageSend').map((s) => s.value)).toEqual([20]);
  });
});
