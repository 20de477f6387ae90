import type { Message, SendMessageBody, SendMessageResult } from '@kadr/contract';
import { ApiError } from '../../../shared/api/client.ts';
import { type KadrSocket, useRealtime } from '../../../shared/realtime/socket.ts';
import { messengerApi } from './messenger-api.ts';

/** How long a socket send waits for its acknowledgement before the same body goes over HTTP. */
export const SOCKET_ACK_TIMEOUT_MS = 10_000;

/** Which path carried a send (kept for tests and diagnostics). */
export type SendPath = 'socket' | 'http';

/**
 * Emits `send-message` and waits for its ack. Resolves null when the ack never came (socket dropped or
 * timed out): the caller then tries HTTP with the same temp_id, which the server treats as the same message.
 */
export function emitSend(
  socket: KadrSocket,
  body: SendMessageBody,
  timeoutMs = SOCKET_ACK_TIMEOUT_MS,
): Promise<SendMessageResult | null> {
  return new Promise((resolve) => {
    socket.timeout(timeoutMs).emit('send-message', body, (err: Error | null, result: SendMessageResult) => {
      resolve(err ? null : result);
    });
  });
}

/**
 * Sends one message the way the benchmarks measure it: over the connected socket with its ack (ADR 0005),
 * falling back to `POST /messages` when the socket is down or the ack does not arrive. A refusal in the
 * ack is thrown as the same `ApiError` the HTTP route would have produced.
 */
export async function sendMessage(
  body: SendMessageBody,
  deps: {
    socket?: () => KadrSocket | null;
    http?: (b: SendMessageBody) => Promise<{ message: Message }>;
  } = {},
): Promise<{ message: Message; via: SendPath }> {
  const socket = (deps.socket ?? currentSocket)();
  if (socket?.connected) {
    const result = await emitSend(socket, body);
    if (result?.ok) return { message: result.message, via: 'socket' };
    if (result && !result.ok)
      throw new ApiError(result.status, {
        error: result.error,
        code: result.code,
        ...(result.fields ? { fields: result.fields } : {}),
      });
  }
  const { message } = await (deps.http ?? messengerApi.send)(body);
  return { message, via: 'http' };
}

function currentSocket(): KadrSocket | null {
  const { socket, connected } = useRealtime.getState();
  return connected ? socket : null;
}
