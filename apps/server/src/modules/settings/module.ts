import { settingsRoutes } from '@kadr/contract/settings/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { settingsMigrations } from './migrations.ts';
import { type PrivacyLookups, privacyLookups } from './privacy.ts';
import { type PushService, pushService } from './push.ts';
import { type ReachPolicy, reachPolicy } from './reach.ts';
import { settingsRepository } from './repository.ts';
import { type SettingsService, settingsService } from './service.ts';

/** What other modules use: the cached privacy checks (hot paths) and the settings service. */
export type SettingsServices = PrivacyLookups & {
  service: SettingsService;
  push: PushService;
  /** Who may reach whom (blocks either way, privacy): asked by every route and socket event. */
  reach: ReachPolicy;
};

declare module '../../app-types.ts' {
  interface ModuleServices {
    /**
     * Privacy enforced on the server (spec §2.3): `assertCanMessage`, `assertCanCall` (403 with the
     * Russian reason), `canSeePresence` / `visibleTo` / `presenceAudience` (hidden last seen and online),
     * `canSeeStories` (blocks). Cached per node, invalidated over the bus.
     */
    settings: SettingsServices;
  }
}

/**
 * Settings: preferences, password and sessions, account deletion, blocks, chat mutes, web push. Listed
 * after `profile` and before the modules that enforce it (messenger, stories, calls); profile reads it at
 * request time.
 */
export const settingsModule = defineModule({
  name: 'settings',
  migrations: settingsMigrations,
  async register(api, ctx) {
    ctx.limits.define('settings.password', { count: 10, windowMs: 15 * 60_000, key: 'user' });
    const repo = settingsRepository(ctx.db.kysely);
    const privacy = await privacyLookups({
      repo,
      bus: ctx.bus,
      onFollowChange: (listener) =>
        ctx.profiles.onChange((change) => {
          if (change.pair) listener(change.pair);
        }),
    });
    const service = settingsService({ repo, privacy, ctx });
    const push = await pushService({
      repo,
      privacy,
      gateway: ctx.gateway,
      events: ctx.events,
      bus: ctx.bus,
      config: ctx.config.push,
      log: api.log,
    });
    const services: SettingsServices = { ...privacy, service, push, reach: reachPolicy(privacy) };
    ctx.settings = services;
    // `online`/`offline` go only to those who may see them; `presence:query` answers the same way.
    ctx.gateway.setPresenceFilter({ audience: privacy.presenceAudience, visible: privacy.visibleTo });

    registerRoutes(
      api,
      settingsRoutes,
      {
        get: (req) => service.get(req.userId),
        update: (req) => service.update(req.userId, req.body),
        changePassword: (req) =>
          service.changePassword(
            req.userId,
            req.token as string,
            req.body.current_password,
            req.body.new_password,
          ),
        sessions: async (req) => ({ sessions: await service.sessions(req.userId, req.token as string) }),
        endSession: (req) => service.endSession(req.userId, req.params.id),
        deleteAccount: (req) => service.deleteAccount(req.userId, req.body.password),
        blocked: (req) => service.blocked(req.userId),
        block: (req) => service.setBlock(req.userId, req.params.username, true),
        unblock: (req) => service.setBlock(req.userId, req.params.username, false),
        mutes: (req) => service.mutes(req.userId),
        mute: (req) => service.mute(req.userId, req.body.chat, req.body.duration),
        pushKey: async () => ({ public_key: push.publicKey }),
        pushSubscribe: async (req) => {
          await push.subscribe(
            req.userId,
            ctx.auth.sessionId(req.token as string),
            req.body.endpoint,
            req.body.keys.p256dh,
            req.body.keys.auth,
          );
          return { ok: true as const };
        },
        pushUnsubscribe: async (req) => {
          await push.unsubscribe(req.userId, req.body.endpoint);
          return { ok: true as const };
        },
      },
      { tag: 'settings' },
    );
    return { services };
  },
});
