import { Limits } from '@kadr/contract';
import { notificationsRoutes } from '@kadr/contract/notifications/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { notificationsCache } from './cache.ts';
import { attachNotificationListeners } from './listeners.ts';
import { notificationsMigrations } from './migrations.ts';
import { notificationsRepository } from './repository.ts';
import { type Clock, EVENT_SWEEP_MS, type NotificationsService, notificationsService } from './service.ts';
import './tables.ts';

export interface NotificationsServices {
  service: NotificationsService;
  /** The module's one clock (tests move it past the 5-minute event window). */
  clock: Clock;
  /** Stops turning domain events into notifications (the benchmark's "notifications off" run). */
  detach(): void;
}

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Notifications (spec §3, §4.6, §7.3): stored from domain events, listed in groups, read. */
    notifications: NotificationsServices;
  }
}

export const notificationsModule = defineModule({
  name: 'notifications',
  migrations: notificationsMigrations,
  async register(api, ctx) {
    const clock: Clock = { now: () => new Date() };
    const repo = notificationsRepository(ctx.db.kysely);
    const cache = await notificationsCache(ctx.bus, ctx.config.feedCacheTtlMs);
    const service = notificationsService({
      repo,
      gateway: ctx.gateway,
      events: ctx.events,
      clock,
      cache,
      // Read through the settings module's per-node cache, invalidated on every settings write.
      inApp: async (userId, type) => (await ctx.settings.settingsOf(userId)).notifications.types[type].in_app,
      canNotify: ctx.settings.reach.canNotify,
    });
    let detach: (() => void) | null = attachNotificationListeners(ctx.events, repo, service);
    const log = api.log;
    const sweep = setInterval(() => {
      service.sweep().catch((err: unknown) => log.error({ err }, 'notification event cache sweep failed'));
    }, EVENT_SWEEP_MS);
    sweep.unref();

    registerRoutes(
      api,
      notificationsRoutes,
      {
        list: async (req, reply) => {
          reply.header('cache-control', 'no-store');
          return service.list(req.userId, req.query.offset ?? 0, req.query.limit ?? Limits.notificationsPage);
        },
        read: (req) => service.read(req.userId, req.params.id),
        readAll: (req) => service.readAll(req.userId),
      },
      { tag: 'notifications' },
    );

    const services: NotificationsServices = {
      service,
      clock,
      detach() {
        detach?.();
        detach = null;
      },
    };
    ctx.notifications = services;
    return {
      services,
      async close() {
        clearInterval(sweep);
        services.detach();
      },
    };
  },
});
