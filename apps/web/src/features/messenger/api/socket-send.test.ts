import type { Message, SendMessageBody, SendMessageResult } from '@kadr/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/client.ts';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { sendMessage } from './socket-send.ts';

const body: SendMessageBody = { other_user_id: 2, content: 'привет', temp_id: 'temp-1' };
const stored = { id: 7, content: 'привет', temp_id: 'temp-1' } as Message;

/** A socket whose `send-message` answers with `answer` (or never, when undefined). */
function fakeSocket(connected: boolean, answer?: SendMessageResult) {
  const emitted: unknown[] = [];
  const socket = {
    connected,
    timeout: () => ({
      emit: (event: string, payload: unknown, ack: (err: Error | null, r?: SendMessageResult) => void) => {
        emitted.push([event, payload]);
        if (answer) ack(null, answer);
        else ack(new Error('operation has timed out'));
      },
    }),
  };
  return { socket: socket as unknown as KadrSocket, emitted };
}

describe('sendMessage', () => {
  it('sends over the connected socket with its ack and does not touch HTTP', async () => {
    const { socket, emitted } = fakeSocket(true, { ok: true, message: stored });
    const http = vi.fn();
    const result = await sendMessage(body, { socket: () => socket, http });
    expect(result).toEqual({ message: stored, via: 'socket' });
    expect(emitted).toEqual([['send-message', body]]);
    expect(http).not.toHaveBeenCalled();
  });

  it('falls back to HTTP with the same body when the socket is down', async () => {
    const http = vi.fn(async () => ({ message: stored }));
    const result = await sendMessage(body, { socket: () => null, http });
    expect(result.via).toBe('http');
    expect(http).toHaveBeenCalledWith(body);
  });

  it('falls back to HTTP when the ack times out (same temp_id: the server stores it once)', async () => {
    const { socket } = fakeSocket(true);
    const http = vi.fn(async () => ({ message: stored }));
    const result = await sendMessage(body, { socket: () => socket, http });
    expect(result.via).toBe('http');
    expect(http).toHaveBeenCalledWith(body);
  });

  it('turns a refusal in the ack into the ApiError HTTP would give', async () => {
    const { socket } = fakeSocket(true, {
      ok: false,
      status: 429,
      error: 'Слишком часто',
      code: 'rate_limited',
      retry_after: 3,
    });
    const http = vi.fn();
    const error = await sendMessage(body, { socket: () => socket, http }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(http).not.toHaveBeenCalled();
  });
});
