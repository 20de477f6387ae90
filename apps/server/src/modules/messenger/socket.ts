import { ErrorCode, ErrorText, Limits, rooms, SendMessageBody, type SendMessageResult } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import { AppError, errors } from '../../lib/errors.ts';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import type { MessagesService } from './service.ts';

/** Typing events one socket may relay per window; the client renews every ~1–2 s while typing. */
export const TYPING_PER_WINDOW = 10;
export const TYPING_WINDOW_MS = Limits.typingMs;

const isId = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= 2_147_483_647;

// The same schema the HTTP route validates `POST /messages` with.
const sendBody = Compile(SendMessageBody);

/** Field → text for an invalid body, the way the HTTP error handler names them. */
function invalidFields(input: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const e of sendBody.Errors(input)) {
    const missing = (e.params as { requiredProperties?: string[] }).requiredProperties;
    for (const field of missing ?? [e.instancePath.replace(/^\//, '').replaceAll('/', '.')])
      if (field) fields[field] = ErrorText.validationFailed;
  }
  return fields;
}

/** What `POST /messages` would answer for this failure, as an ack. */
function failure(err: unknown, log: FastifyBaseLogger): SendMessageResult {
  if (err instanceof AppError)
    return {
      ok: false,
      status: err.status,
      error: err.message,
      code: err.code,
      ...(err.fields ? { fields: err.fields } : {}),
    };
  log.error({ err }, 'socket send failed');
  return { ok: false, status: 500, error: ErrorText.internal, code: ErrorCode.internal };
}

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

/** Messenger socket events: `send-message`, the `typing` relay and `message-delivered` acks from devices. */
export function registerMessengerSocket(
  gateway: Gateway,
  messages: MessagesService,
  log: FastifyBaseLogger,
  /** The session check HTTP requests pass (cached per node, revocations arrive through the bus). */
  resolveToken: (token: string) => Promise<number | null>,
  now: () => number = Date.now,
) {
  gateway.io.on('connection', (socket: KadrSocket) => {
    const { userId } = socket.data;
    const allowTyping = windowLimiter(TYPING_PER_WINDOW, TYPING_WINDOW_MS, now);

    // The typist's display name for group typing ("<name> печатает..."), looked up once per socket.
    let name: Promise<string> | null = null;
    socket.on('typing', (input) => {
      if (typeof input !== 'object' || input === null) return;
      const { group_id: group, is_typing: typing } = input;
      if (group !== undefined) {
        // Being in the group's room is being a member: the room is left on every node on removal.
        if (!isId(group) || typeof typing !== 'boolean' || !socket.rooms.has(rooms.group(group))) return;
        if (!allowTyping()) return;
        name ??= messages.tools.requireUser(userId).then((u) => u.name);
        name
          .then((sender_name) =>
            socket
              .to(rooms.group(group))
              .except(rooms.user(userId))
              .emit('typing', {
                sender_id: userId,
                type: 'group-typing',
                group_id: group,
                sender_name,
                data: { is_typing: typing },
              }),
          )
          .catch((err: unknown) => log.error({ err }, 'group typing failed'));
        return;
      }
      const { other_user_id: to, is_typing } = input;
      if (!isId(to) || to === userId || typeof is_typing !== 'boolean') return;
      if (!allowTyping()) return;
      gateway.emitToUser(to, 'typing', { sender_id: userId, type: 'typing', data: { is_typing } });
    });

    socket.on('send-message', (input, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (!sendBody.Check(input))
        return reply({
          ok: false,
          status: 400,
          error: ErrorText.validationFailed,
          code: ErrorCode.validationFailed,
          fields: invalidFields(input),
        });
      // Like an HTTP send, it needs the session to still be active (a logout does not close sockets).
      const token = String((socket.handshake.auth as { token?: unknown }).token);
      resolveToken(token)
        .then((current) => {
          if (current !== userId) throw errors.unauthorized();
          return messages.send(userId, input);
        })
        .then((message) => reply({ ok: true, message }))
        .catch((err: unknown) => reply(failure(err, log)));
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
