import path from 'node:path';
import { type ChatListItem, ErrorText, Limits } from '@kadr/contract';
import { messengerReactionRoutes, messengerRoutes } from '@kadr/contract/messenger/routes';
import type { AppContext } from '../../app-types.ts';
import { registerRoutes } from '../../lib/route.ts';
import { serializedJson, storedJson } from '../../lib/stored-json.ts';
import { causingPage } from '../../realtime/cause.ts';
import { releaseUrls } from '../../storage/references.ts';
import { defineModule } from '../module.ts';
import { ATTACHMENT_JOB, attachmentsService, VIDEO_ATTACHMENT_JOB } from './attachments.ts';
import { batchQueries } from './batch-queries.ts';
import { type ChatListCache, chatListCache } from './chat-list-cache.ts';
import { chatsRepository } from './chats-repository.ts';
import { chatsService } from './chats-service.ts';
import { messengerFacts } from './facts-cache.ts';
import { historyService } from './history.ts';
import { historyRepository } from './history-repository.ts';
import * as messengerTables from './migrations/0004-messenger.ts';
import * as messengerReactionsTable from './migrations/0110-messenger-reactions.ts';
import * as messengerVoiceColumn from './migrations/0111-messenger-voice.ts';
import * as pinnedMessagesColumn from './migrations/2600-messenger-pinned-messages.ts';
import { reactionsOf, reactionsService } from './reactions.ts';
import { messengerRepository } from './repository.ts';
import { type RoomWriters, roomWriters } from './room-writers.ts';
import { messagesService } from './service.ts';
import { registerMessengerSocket } from './socket.ts';

function buildMessenger(ctx: AppContext, chatList: ChatListCache, writers: RoomWriters) {
  const db = ctx.db.kysely;
  const repo = messengerRepository(db);
  const messages = messagesService({
    repo,
    queries: batchQueries(db),
    facts: messengerFacts(),
    gateway: ctx.gateway,
    limits: ctx.limits,
    events: ctx.events,
    releaseFiles: (urls) => releaseUrls(db, ctx.storage, urls),
    canMessage: ctx.settings.assertCanMessage,
    listChanged: chatList.changed,
    roomMembersChanged: ctx.settings.push.roomChanged,
    writers,
    sendQueueMaxWaitMs: ctx.config.messageSendQueueMaxWaitMs,
    databaseWaitingMs: () => ctx.db.waitingMs(),
    insertsInFlight: ctx.db.engine === 'pglite' ? 1 : 2,
  });
  messages.tools.setReactionLookup((ids) => reactionsOf(db, ids));
  // Edits, pins and reactions never reach someone walled off by a block (the settings module's policy).
  messages.tools.setWalls(ctx.settings.reach.assertCanInteract);
  const reactions = reactionsService({ db, tools: messages.tools, limits: ctx.limits });
  const chats = chatsService({
    repo,
    chats: chatsRepository(db),
    messages,
    limits: ctx.limits,
    cache: chatList,
  });
  const history = historyService({ repo, history: historyRepository(db), messages });
  const { jobs, inFlight } = ctx.media;
  const attachments = attachmentsService({
    repo,
    db,
    storage: ctx.storage,
    maxBytes: ctx.config.messageAttachmentMaxBytes,
    limits: ctx.limits,
    tmpRoot: path.join(ctx.config.dataDir, 'tmp'),
    jobs,
    inFlight,
    onProcessed: (messageId) => messages.filesChanged(messageId),
    releaseStored: (urls) => releaseUrls(db, ctx.storage, urls),
  });
  const capped = { timeoutReason: ErrorText.mediaTooLong };
  jobs.register(ATTACHMENT_JOB, attachments.handler, { ...capped, lane: 'light' });
  jobs.register(VIDEO_ATTACHMENT_JOB, attachments.handler, { ...capped, lane: 'heavy' });
  return { messages, chats, attachments, reactions, history };
}

/** A peer's last seen only where their privacy setting lets the viewer see it (settings module). */
async function hideLastSeen(ctx: AppContext, viewer: number, list: ChatListItem[]): Promise<ChatListItem[]> {
  const out: ChatListItem[] = [];
  for (const chat of list)
    out.push(
      chat.last_seen !== null && !(await ctx.settings.canSeePresence(chat.user_id, viewer))
        ? { ...chat, last_seen: null }
        : chat,
    );
  return out;
}

/** Personal chats and favorites: message and chat services (groups and channels build on them). */
export type Messenger = ReturnType<typeof buildMessenger>;

declare module '../../app-types.ts' {
  interface ModuleServices {
    messenger: Messenger;
  }
}

/**
 * The messenger: services, the socket handlers, the presence audience (chat peers hear
 * `online`/`offline`) and its routes (spec §7.5).
 */
export const messengerModule = defineModule({
  name: 'messenger',
  migrations: {
    '0004-messenger': messengerTables,
    '0110-messenger-reactions': messengerReactionsTable,
    '0111-messenger-voice': messengerVoiceColumn,
    '2600-messenger-pinned-messages': pinnedMessagesColumn,
  },
  async register(api, ctx) {
    const chatList = await chatListCache(ctx.bus, { ttlMs: ctx.config.feedCacheTtlMs });
    // A peer's name, avatar or last seen is on the lists of everyone who chats with them; whether the
    // viewer may see that last seen depends on the peer's privacy, blocks and follows (stored pages).
    ctx.settings.onChange((userId) => chatList.changedHere({ users: [userId] }));
    const stored = storedJson();
    const messenger = buildMessenger(
      ctx,
      chatList,
      await roomWriters(ctx.bus, { ttlMs: ctx.config.feedCacheTtlMs }),
    );
    const { messages, chats, attachments, reactions, history } = messenger;
    ctx.profiles.onChange((change) => {
      chatList.changedHere({ users: [...change.ids, ...(change.pair ?? [])] });
      // A new message shows its sender's name and avatar as they are now.
      messages.profilesChanged(change.ids);
    });
    ctx.messenger = messenger;
    // Batched sends and acks still writing must finish before the database is closed (after the sockets).
    api.addHook('onClose', () => messages.drained());
    ctx.gateway.addAudienceProvider(chats.peers, chats.peers);
    registerMessengerSocket(
      ctx.gateway,
      messages,
      ctx.log,
      (sessionId) => ctx.auth.resolveSession(sessionId),
      ctx.limits,
      ctx.settings.reach.walledOf,
    );

    registerRoutes(
      api,
      messengerRoutes,
      {
        chats: async (req, reply) => {
          const { limit, offset = 0 } = req.query;
          if (limit !== undefined && offset > 0) {
            const answer = await chats.page(req.userId, limit, offset);
            return { ...answer, chats: await hideLastSeen(ctx, req.userId, answer.chats) };
          }
          // The list's start (all of it without a limit), as the route's serializer wrote it when the
          // cached page was built.
          const body = await chats.startBody(req.userId, limit ?? null, async (answer) =>
            serializedJson(reply, { ...answer, chats: await hideLastSeen(ctx, req.userId, answer.chats) }),
          );
          return stored(req.raw, reply, body);
        },
        chatSearch: async (req) => ({
          chats: await hideLastSeen(ctx, req.userId, await chats.searchByName(req.userId, req.query.q)),
        }),
        search: (req) =>
          chats.searchMessages(req.userId, req.query.q, req.query.limit ?? 20, req.query.offset ?? 0),
        pin: (req) => chats.pin(req.userId, req.body, true),
        unpin: (req) => chats.pin(req.userId, req.body, false),
        deleteChat: async (req) => {
          await chats.remove(req.userId, req.body);
          return { ok: true as const };
        },
        conversation: async (req) => ({
          ...(await messages.conversation(
            req.userId,
            req.query.other_user_id,
            req.query.limit ?? Limits.messagesInitial,
            req.query.offset ?? 0,
          )),
          // "Can I write here", before anything is typed (the refusal a send would get now).
          ...(await messages.writeRestriction(req.userId, req.query.other_user_id)),
        }),
        around: (req) => history.around(req.userId, req.params.id, req.query.limit ?? 30),
        pinMessage: (req) => history.setPin(req.userId, req.params.id, true),
        unpinMessage: (req) => history.setPin(req.userId, req.params.id, false),
        sharedMedia: (req) => history.sharedMedia(req.userId, req.query),
        send: async (req) => {
          // The page that sent it has the message in this answer: its own socket (here) is not told again.
          const page = causingPage();
          const socketId = page === undefined ? undefined : ctx.gateway.pageSocket(req.userId, page);
          return { message: await messages.send(req.userId, req.body, socketId ? { socketId } : {}) };
        },
        edit: async (req) => ({ message: await messages.edit(req.userId, req.params.id, req.body.content) }),
        remove: (req) => messages.remove(req.userId, req.params.id, req.query.for ?? 'me'),
        forward: async (req) => ({
          messages: await messages.forward(req.userId, req.body.message_ids, req.body.targets),
        }),
        read: (req) => messages.markRead(req.userId, req.body.other_user_id),
        delivered: async (req) => {
          await messages.delivered(req.userId, req.body.message_ids);
          return { ok: true as const };
        },
        attachments: async (req) => ({ files: await attachments.upload(req.userId, req.raw) }),
      },
      { tag: 'messenger' },
    );
    registerRoutes(
      api,
      messengerReactionRoutes,
      {
        react: (req) => reactions.react(req.userId, req.params.id, req.params.reaction),
        unreact: (req) => reactions.unreact(req.userId, req.params.id, req.params.reaction),
      },
      { tag: 'messenger' },
    );
    return { services: messenger };
  },
});
