import { ErrorCode, ErrorText, rooms, SendMessageBody, type SendMessageResult } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import { AppError, errors } from '../../lib/errors.ts';
import { RateLimitedError, type RateLimits } from '../../lib/limits.ts';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import { chatRoom } from './conversations.ts';
import type { ConversationRow } from './repository.ts';
import type { MessagesService } from './service.ts';

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
      ...(err instanceof RateLimitedError ? { retry_after: err.retryAfterSeconds } : {}),
      ...(err.code === ErrorCode.serverBusy ? { retry_after: 1 } : {}),
    };
  log.error({ err }, 'socket send failed');
  return { ok: false, status: 500, error: ErrorText.internal, code: ErrorCode.internal };
}

/** Messenger socket events: `send-message`, the `typing` relay and `message-delivered` acks from devices. */
export function registerMessengerSocket(
  gateway: Gateway,
  messages: MessagesService,
  log: FastifyBaseLogger,
  /**
   * The session check HTTP requests pass (cached per node, revocations arrive through the bus), by the
   * session's id (`socket.data.sessionId`): a socket keeps no token.
   */
  resolveSession: (sessionId: string) => Promise<number | null>,
  limits: RateLimits,
  /** Everyone walled off from a user by a block, either way: they never see that user typing in a group. */
  walledOf: (userId: number) => Promise<ReadonlySet<number>> = async () => new Set(),
) {
  // Relayed only into a chat that exists (a stranger gets nothing until a message opens one),
  // throttled per chat across all of the user's sockets and nodes.
  gateway.handle('typing', (socket: KadrSocket, input) => {
    const { userId } = socket.data;
    if (typeof input !== 'object' || input === null) return;
    const { group_id: group, is_typing: typing } = input;
    if (group !== undefined) {
      // Being in the group's room is being a member: the room is left on every node on removal.
      if (!isId(group) || typeof typing !== 'boolean' || !socket.rooms.has(rooms.group(group))) return;
      // The typist's display name ("<name> печатает..."), looked up once per socket.
      socket.data.typistName ??= messages.tools.requireUser(userId).then((u) => u.name);
      const sender = socket.data.typistName;
      limits
        .consume('message.typing', { user: userId, scope: `group:${group}` })
        .then(() => Promise.all([sender, walledOf(userId)]))
        .then(([sender_name, walled]) =>
          socket
            .to(rooms.group(group))
            .except([rooms.user(userId), ...[...walled].map(rooms.user)])
            .emit('typing', {
              sender_id: userId,
              type: 'group-typing',
              group_id: group,
              sender_name,
              data: { is_typing: typing },
            }),
        )
        .catch((err: unknown) => {
          if (!(err instanceof AppError)) log.error({ err }, 'group typing failed');
        });
      return;
    }
    const { other_user_id: to, is_typing } = input;
    if (!isId(to) || to === userId || typeof is_typing !== 'boolean') return;
    limits
      .consume('message.typing', { user: userId, scope: to })
      .then(() => messages.mayType(userId, to))
      .then((may) => {
        if (may) gateway.emitToUser(to, 'typing', { sender_id: userId, type: 'typing', data: { is_typing } });
      })
      .catch((err: unknown) => {
        if (!(err instanceof AppError)) log.error({ err }, 'typing relay failed');
      });
  });

  gateway.handle('send-message', (socket: KadrSocket, input, ack) => {
    const { userId } = socket.data;
    const reply = typeof ack === 'function' ? ack : () => undefined;
    // PostgreSQL text cannot hold NUL: refused here like the HTTP JSON parser refuses it, not a 500 later.
    if (typeof input?.content === 'string' && input.content.includes('\u0000'))
      return reply({
        ok: false,
        status: 400,
        error: ErrorText.malformedBody,
        code: ErrorCode.validationFailed,
        fields: { content: ErrorText.validationFailed },
      });
    if (!sendBody.Check(input))
      return reply({
        ok: false,
        status: 400,
        error: ErrorText.validationFailed,
        code: ErrorCode.validationFailed,
        fields: invalidFields(input),
      });
    // Like an HTTP send, it needs the session to still be active (a logout does not close sockets).
    resolveSession(socket.data.sessionId)
      .then((current) => {
        if (current !== userId) throw errors.unauthorized();
        // Being in the group's room is being a member: the send needs no membership lookup.
        const inRoom = input.group_id !== undefined && socket.rooms.has(rooms.group(input.group_id));
        return messages.send(userId, input, { inRoom, socketId: socket.id });
      })
      .then((message) => reply({ ok: true, message }))
      .catch((err: unknown) => reply(failure(err, log)));
  });

  gateway.handle('message-delivered', (socket: KadrSocket, input, ack) => {
    const { userId } = socket.data;
    const reply = typeof ack === 'function' ? ack : () => undefined;
    const ids = Array.isArray(input?.message_ids) ? input.message_ids.filter(isId).slice(0, 100) : [];
    if (ids.length === 0) return reply({ ok: false });
    // Being in the chat's room is being a member (left on every node on removal): no lookup per ack.
    const inRoom = (chat: ConversationRow) => socket.rooms.has(chatRoom(chat));
    // Most acks in a big group change nothing anyone sees: answered here, without the batch.
    if (messages.settledAck(userId, ids, inRoom)) return reply({ ok: true });
    messages
      .delivered(userId, ids, inRoom)
      .then(() => reply({ ok: true }))
      .catch((err: unknown) => {
        if ((err as { status?: number }).status === undefined) log.error({ err }, 'delivery ack failed');
        reply({ ok: false });
      });
  });
}
