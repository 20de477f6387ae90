import { AttachmentsResponse, ErrorBody, ErrorText, paths } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { App } from '../../app-types.ts';
import type { Database } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import { releaseUrls } from '../../storage/references.ts';
import type { Storage } from '../../storage/storage.ts';
import type { UploadsInFlight } from '../media/upload/in-flight.ts';
import { ATTACHMENT_JOB, attachmentsService, VIDEO_ATTACHMENT_JOB } from './attachments.ts';
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
  log: FastifyBaseLogger;
  /** Bearer token → user id, for checks on socket events that act like HTTP requests. */
  resolveToken: (token: string) => Promise<number | null>;
  /** The durable queue that processes media attachments, and where uploads wait for it (under DATA_DIR). */
  jobs?: JobQueue;
  tmpRoot?: string;
  inFlight?: UploadsInFlight;
}) {
  const repo = messengerRepository(deps.db);
  const messages = messagesService({
    repo,
    queries: batchQueries(deps.db),
    facts: messengerFacts(),
    gateway: deps.gateway,
    releaseFiles: (urls) => releaseUrls(deps.db, deps.storage, urls),
  });
  const chats = chatsService({ repo, chats: chatsRepository(deps.db), messages });
  const attachments = attachmentsService({
    repo,
    db: deps.db,
    storage: deps.storage,
    maxBytes: deps.attachmentMaxBytes,
    tmpRoot: deps.tmpRoot,
    jobs: deps.jobs,
    inFlight: deps.inFlight,
    onProcessed: (messageId) => messages.filesChanged(messageId),
    releaseStored: (urls) => releaseUrls(deps.db, deps.storage, urls),
  });
  if (deps.jobs) {
    const capped = { timeoutReason: ErrorText.mediaTooLong };
    deps.jobs.register(ATTACHMENT_JOB, attachments.handler, { ...capped, lane: 'light' });
    deps.jobs.register(VIDEO_ATTACHMENT_JOB, attachments.handler, { ...capped, lane: 'heavy' });
  }
  deps.gateway.addAudienceProvider(chats.peers);
  registerMessengerSocket(deps.gateway, messages, deps.log, deps.resolveToken);

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
