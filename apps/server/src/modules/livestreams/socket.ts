import { ErrorCode, ErrorText, LiveChatInput, type LiveSocketAck, rooms } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import { AppError } from '../../lib/errors.ts';
import { RateLimitedError } from '../../lib/limits.ts';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import type { LivestreamsService } from './service.ts';

const chatInput = Compile(LiveChatInput);
const malformed: LiveSocketAck = {
  ok: false,
  error: ErrorText.malformedBody,
  code: ErrorCode.validationFailed,
};
const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) < 2 ** 31;

function failure(error: unknown): LiveSocketAck {
  if (error instanceof RateLimitedError)
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
  gateway.io.on('connection', (socket: KadrSocket) => {
    const { userId } = socket.data;

    socket.on('live-stream-viewer-join', (input, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const id = input?.stream_id;
      if (!isId(id)) return reply(malformed);
      service
        .live(id)
        .then(async () => {
          await socket.join(rooms.stream(id));
          reply({ ok: true });
        })
        .catch((error) => reply(failure(error)));
    });

    socket.on('live-stream-viewer-leave', (input) => {
      const id = input?.stream_id;
      if (isId(id)) void socket.leave(rooms.stream(id));
    });

    socket.on('live-stream-message', (input, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (!chatInput.Check(input)) return reply(malformed);
      service
        .sendChat(userId, input)
        .then(() => reply({ ok: true }))
        .catch((error) => {
          if (!(error instanceof AppError)) log.error({ err: error }, 'livestreams: chat send failed');
          reply(failure(error));
        });
    });
  });
}
