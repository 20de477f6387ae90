import { ErrorCode, ErrorText, ModerationLimits } from '@kadr/contract';
import { moderationRoutes } from '@kadr/contract/moderation/routes';
import { registerRoutes } from '../../lib/route.ts';
import type { KadrSocket } from '../../realtime/gateway.ts';
import type { LivestreamsService } from '../livestreams/service.ts';
import { defineModule } from '../module.ts';
import { moderationMigrations } from './migrations.ts';
import { moderationRepository } from './repository.ts';
import { type ModerationService, moderationService } from './service.ts';
import { suspensions as buildSuspensions } from './suspensions.ts';
import { targetRegistry } from './targets/registry.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Reports, the moderators' queue and actions, suspensions, the audit log. */
    moderation: ModerationService;
  }
}

/** How often ended suspensions are lifted (their content comes back) when nobody tries to sign in. */
const SUSPENSION_SWEEP_MS = 60_000;

/**
 * Moderation: anyone reports what they can see; moderators (MODERATOR_USERNAMES, or granted in the app)
 * work a queue grouped by item, remove and restore content, suspend accounts, end live streams; every
 * action lands in an append-only audit log, and reporters hear when their report led to one.
 */
export const moderationModule = defineModule({
  name: 'moderation',
  migrations: moderationMigrations,
  async register(api, ctx) {
    ctx.limits.define('moderation.report', { count: 30, windowMs: 60 * 60_000, key: 'user' });
    const repo = moderationRepository(ctx.db.kysely);
    const suspensions = buildSuspensions(ctx);
    const livestreams = () => ctx.modules.livestreams as LivestreamsService | undefined;
    const service = moderationService({
      repo,
      targets: targetRegistry(ctx),
      suspensions,
      gateway: ctx.gateway,
      limits: ctx.limits,
      configured: ctx.config.moderatorUsernames,
      endStream: async (id) => (await livestreams()?.endByModerator(id)) ?? false,
    });
    ctx.auth.setLoginGate((userId) => suspensions.checkLogin(userId));
    ctx.moderation = service;

    const log = api.log;
    const sweep = setInterval(() => {
      suspensions.sweep().catch((err: unknown) => log.error({ err }, 'moderation: suspension sweep failed'));
    }, SUSPENSION_SWEEP_MS);
    sweep.unref();

    ctx.gateway.handle('moderation:watch', (socket: KadrSocket, ack) => {
      if (typeof ack !== 'function') return;
      service
        .isModerator(socket.data.userId)
        .then(async (yes) => {
          if (!yes) return ack({ error: ErrorText.notModerator, code: ErrorCode.forbidden });
          await socket.join('moderators');
          ack({ ok: true });
        })
        .catch(() => ack({ error: ErrorText.internal, code: ErrorCode.internal }));
    });

    registerRoutes(
      api,
      moderationRoutes,
      {
        report: (req) => service.report(req.userId, req.body),
        me: async (req) => ({ is_moderator: await service.isModerator(req.userId) }),
        notices: (req) => service.notices(req.userId),
        readNotices: (req) => service.readNotices(req.userId),
        queue: (req) =>
          service.queue(
            req.userId,
            req.query.status ?? 'open',
            req.query.offset ?? 0,
            req.query.limit ?? ModerationLimits.queuePage,
          ),
        act: (req) => service.act(req.userId, req.params.id, req.body),
        endStream: (req) => service.endStream(req.userId, req.params.id, req.body.reason ?? ''),
        audit: (req) =>
          service.audit(req.userId, req.query.offset ?? 0, req.query.limit ?? ModerationLimits.auditPage),
        moderators: (req) => service.moderators(req.userId),
        grant: (req) => service.grant(req.userId, req.body.username),
      },
      { tag: 'moderation' },
    );

    return {
      services: service,
      async close() {
        clearInterval(sweep);
      },
    };
  },
});
