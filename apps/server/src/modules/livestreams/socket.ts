import { ErrorCode, ErrorText, LiveChatInput, type LiveSocketRefusal, rooms } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import { AppError } from '../../lib/errors.ts';
import { RateLimitedError } from '../../lib/limits.ts';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import { SlowModeError } from './chat.ts';
import type { LivestreamsService } from './service.ts';

const chatInput = Compile(LiveChatInput);
const malformed: LiveSocketRefusal = {
  ok: false,
  error: ErrorText.malformedBody,
  code: ErrorCode.validationFailed,
};
const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) < 2 ** 31;

function failure(error: unknown): LiveSocketRefusal {
  if (error instanceof RateLimitedError)
    return { ok: false, error: error.message, code: error.code, retry_after: error.retryAfterSeconds };
  if (error instanceof SlowModeError)
    return { ok: false, error: error.message, code: error.code, retry_after: error.retryAfterSeconds };
  if (error instanceof AppError) return { ok: false, error: error.message, code: error.code };
  return { ok: false, error: ErrorText.internal, code: ErrorCode.internal };
}

/** Spec §7.6 "Out": live-stream-message, live-stream-viewer-join, live-stream-viewer-leave. */
export function registerLiveStreamSockets(
  gateway: Gateway,
  service: LivestreamsService,
  log: FastifyBaseLogger,
) {
  gateway.handle('live-stream-viewer-join', (socket: KadrSocket, input, ack) => {
    const reply = typeof ack === 'function' ? ack : () => undefined;
    const id = input?.stream_id;
    if (!isId(id)) return reply(malformed);
    const { userId } = socket.data;
    service
      .watchable(id, userId)
      .then(async () => {
        await socket.join(rooms.stream(id));
        // Read after the join: a line stored meanwhile is in these or arrives as an event (LiveJoinAck).
        const { messages } = await service.chat.join(id, userId);
        reply({ ok: true, messages });
      })
      .catch((error) => reply(failure(error)));
  });

  gateway.handle('live-stream-viewer-leave', (socket: KadrSocket, input) => {
    const id = input?.stream_id;
    if (isId(id)) void socket.leave(rooms.stream(id));
  });

  gateway.handle('live-stream-message', (socket: KadrSocket, input, ack) => {
    const { userId } = socket.data;
    const reply = typeof ack === 'function' ? ack : () => undefined;
    if (!chatInput.Check(input)) return reply(malformed);
    service.chat
      .send(userId, input)
      .then(() => reply({ ok: true }))
      .catch((error) => {
        if (!(error instanceof AppError)) log.error({ err: error }, 'livestreams: chat send failed');
        reply(failure(error));
      });
  });
}
