import { voiceRoutes } from '@kadr/contract/voice/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { voiceMigrations } from './migrations.ts';
import { voiceRepository } from './repository.ts';
import { type VoiceService, voiceRoomControl, voiceService } from './service.ts';
import './tables.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Group voice chats: one session per group, an audio-only media room per session. */
    voice: VoiceService;
  }
}

/** Group voice chats (spec §4.2, §7.5, §7.6). */
export const voiceModule = defineModule({
  name: 'voice',
  migrations: voiceMigrations,
  async register(api, ctx) {
    const voice = voiceService({
      repo: voiceRepository(ctx.db.kysely),
      gateway: ctx.gateway,
      tokens: ctx.mediaPlane.tokens,
      rooms: voiceRoomControl(ctx.config.livekit, api.log),
      limits: ctx.limits,
      log: api.log,
    });
    const stopListening = ctx.mediaPlane.onEvent((event) =>
      voice.onMediaEvent(event).catch((err) => api.log.error({ err }, 'voice: webhook handling failed')),
    );
    const stopMembers = ctx.events.on('group.member-left', (e) => voice.memberGone(e.groupId, e.userId));
    const stopDeleted = ctx.events.on('group.deleted', (e) => voice.groupDeleted(e.groupId));

    registerRoutes(
      api,
      voiceRoutes,
      {
        get: (req) => voice.get(req.userId, req.params.id),
        join: (req) => voice.join(req.userId, req.params.id),
        leave: async (req) => {
          await voice.leave(req.userId, req.params.id);
          return { ok: true as const };
        },
        end: async (req) => {
          await voice.end(req.userId, req.params.id);
          return { ok: true as const };
        },
        hand: (req) => voice.hand(req.userId, req.params.id, req.body),
      },
      { tag: 'voice' },
    );
    return {
      services: voice,
      close: async () => {
        stopListening();
        stopMembers();
        stopDeleted();
      },
    };
  },
});
