import { AttachmentsResponse, ErrorBody, paths } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { App } from '../../app-types.ts';
import type { Database } from '../../db/schema.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { Storage } from '../../storage/storage.ts';
import { attachmentsService } from './attachments.ts';
import { batchQueries } from './batch-queries.ts';
import { chatRoutes } from './chat-routes.ts';
import { chatsRepository } from './chats-repository.ts';
import { chatsService } from './chats-service.ts';
import { messengerFacts } from './facts-cache.ts';
import { messengerRepository } from './repository.ts';
import { messageRoutes } from './routes.ts';
import { messagesService } from './service.ts';
import { registerMessengerSocket } from './socket.ts';

/**
 * Builds the messenger once: services, the socket handlers, the presence audience (chat peers
 * hear `online`/`offline`), and a Fastify plugin with its routes.
 */
export function createMessenger(deps: {
  db: Kysely<Database>;
  gateway: Gateway;
  storage: Storage;
  attachmentMaxBytes: number;
  limits: RateLimits;
  log: FastifyBaseLogger;
  /** Bearer token → user id, for checks on socket events that act like HTTP requests. */
  resolveToken: (token: string) => Promise<number | null>;
}) {
  const repo = messengerRepository(deps.db);
  const messages = messagesService({
    repo,
    queries: batchQueries(deps.db),
    facts: messengerFacts(),
    gateway: deps.gateway,
    limits: deps.limits,
  });
  const chats = chatsService({ repo, chats: chatsRepository(deps.db), messages, limits: deps.limits });
  const attachments = attachmentsService({
    repo,
    storage: deps.storage,
    maxBytes: deps.attachmentMaxBytes,
    limits: deps.limits,
  });
  deps.gateway.addAudienceProvider(chats.peers, chats.peers);
  registerMessengerSocket(deps.gateway, messages, deps.log, deps.resolveToken, deps.limits);

  async function routes(app: App) {
    // Batched sends and acks still writing must finish before the database is closed.
    app.addHook('onClose', () => messages.drained());
    await app.register(messageRoutes(messages));
    await app.register(chatRoutes(chats));
    app.post(
      paths.messages.attachments,
      {
        config: { auth: 'required' },
        schema: {
          tags: ['messenger'],
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          description:
            'multipart/form-data, files in the field `files`; checked by content; answers ids to send with.',
          response: { 200: AttachmentsResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
        },
      },
      async (req) => ({ files: await attachments.upload(req.userId!, req) }),
    );
  }

  return { messages, chats, attachments, routes };
}

export type Messenger = ReturnType<typeof createMessenger>;
