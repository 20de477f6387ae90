import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { livestreamsCache } from './cache.ts';
import { liveChatReach } from './chat-reach.ts';
import { liveChatRepository } from './chat-repository.ts';
import { livestreamMigrations } from './migrations.ts';
import { livestreamsRepository } from './repository.ts';
import { livekitRoomControl } from './room-control.ts';
import { livestreamsService } from './service.ts';
import { registerLiveStreamSockets } from './socket.ts';

/** Live streams on the LiveKit media plane: host, up to 5 audio guests, viewers with chat (spec §4.3). */
export const livestreamsModule = defineModule({
  name: 'livestreams',
  migrations: livestreamMigrations,
  async register(api, ctx) {
    const { config, mediaPlane, gateway } = ctx;
    const settings = config.livestreams;
    const service = livestreamsService({
      repo: livestreamsRepository(ctx.db.kysely),
      chatRepo: liveChatRepository(ctx.db.kysely),
      reach: liveChatReach(ctx.settings.reach),
      policy: ctx.settings.reach,
      cache: await livestreamsCache(ctx.bus, config.profileCacheTtlMs, ctx.profiles),
      mediaPlane,
      roomControl: livekitRoomControl(config.livekit, api.log),
      gateway,
      followerIds: ctx.profiles.followerIds,
      limits: ctx.limits,
      hostTimeoutMs: settings.hostTimeoutMs,
      hostJoinTimeoutMs: settings.hostJoinTimeoutMs,
      log: api.log,
    });

    const stopListening = mediaPlane.onEvent((event) =>
      service
        .onMediaEvent(event)
        .catch((err) => api.log.error({ err }, 'livestreams: webhook handling failed')),
    );
    // Each node sweeps; ending is one conditional update, so only one of them announces it.
    const sweepEvery = Math.min(Math.max(Math.floor(settings.hostTimeoutMs / 2), 250), 15_000);
    let sweeping: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      sweeping = service.sweep().catch((err) => api.log.error({ err }, 'livestreams: sweep failed'));
    }, sweepEvery);
    timer.unref();

    registerRoutes(
      api,
      livestreamsRoutes,
      {
        active: (req) => service.active(req.query.limit).then((streams) => ({ streams })),
        create: async (req, reply) => {
          const stream = await service.create(req.userId, req.body.title);
          reply.code(201);
          return stream;
        },
        get: (req) => service.get(req.params.id),
        end: (req) => service.end(req.params.id, req.userId).then((stream) => ({ stream })),
        token: (req) => service.token(req.params.id, req.userId),
        addGuest: async (req, reply) => {
          const guest = await service.addGuest(req.params.id, req.userId, req.body.user_id);
          reply.code(201);
          return guest;
        },
        removeGuest: (req) =>
          service.removeGuest(req.params.id, req.userId, req.params.userId).then(() => undefined),
        viewerJoin: (req) => service.viewerJoin(req.params.id, req.userId),
        deleteChatMessage: (req) =>
          service.chat.deleteLine(req.params.id, req.userId, req.params.messageId).then(() => undefined),
        mute: (req) =>
          service.chat.mute(req.params.id, req.userId, req.body.user_id, true).then(() => undefined),
        unmute: (req) =>
          service.chat.mute(req.params.id, req.userId, req.params.userId, false).then(() => undefined),
        ban: (req) => service.chat.ban(req.params.id, req.userId, req.body.user_id).then(() => undefined),
        unban: (req) =>
          service.chat.unban(req.params.id, req.userId, req.params.userId).then(() => undefined),
        slowMode: (req) => service.setSlowMode(req.params.id, req.userId, req.body.seconds),
        setModerator: (req) =>
          service.chat.setModerator(req.params.id, req.userId, req.params.userId, req.body.moderator),
      },
      { tag: 'live streams' },
    );
    registerLiveStreamSockets(gateway, service, api.log);

    return {
      services: service,
      async close() {
        clearInterval(timer);
        stopListening();
        await sweeping;
        await service.close();
      },
    };
  },
});
