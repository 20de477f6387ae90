import { Limits } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import type { MessagesService } from './service.ts';

/** Typing events one socket may relay per window; the client renews every ~1–2 s while typing. */
export const TYPING_PER_WINDOW = 10;
export const TYPING_WINDOW_MS = Limits.typingMs;

const isId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= 2_147_483_647;

/** A fixed window counter per socket: typing is relayed, never stored, so a local limit is enough. */
function windowLimiter(limit: number, windowMs: number, now: () => number) {
  let start = 0;
  let count = 0;
  return () => {
    const t = now();
    if (t - start >= windowMs) {
      start = t;
      count = 0;
    }
    count += 1;
    return count <= limit;
  };
}

/** Messenger socket events: `typing` relay and `message-delivered` acks from devices. */
export function registerMessengerSocket(
  gateway: Gateway,
  messages: MessagesService,
  log: FastifyBaseLogger,
  now: () => number = Date.now,
) {
  gateway.io.on('connection', (socket: KadrSocket) => {
    const { userId } = socket.data;
    const allowTyping = windowLimiter(TYPING_PER_WINDOW, TYPING_WINDOW_MS, now);

    socket.on('typing', (input) => {
      if (typeof input !== 'object' || input === null) return;
      const { other_user_id: to, is_typing } = input;
      if (!isId(to) || to === userId || typeof is_typing !== 'boolean') return;
      if (!allowTyping()) return;
      gateway.emitToUser(to, 'typing', { sender_id: userId, type: 'typing', data: { is_typing } });
    });

    socket.on('message-delivered', (input, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const ids = Array.isArray(input?.message_ids) ? input.message_ids.filter(isId).slice(0, 100) : [];
      if (ids.length === 0) return reply({ ok: false });
      messages
        .delivered(userId, ids)
        .then(() => reply({ ok: true }))
        .catch((err: unknown) => {
          if ((err as { status?: number }).status === undefined) log.error({ err }, 'delivery ack failed');
          reply({ ok: false });
        });
    });
  });
}
