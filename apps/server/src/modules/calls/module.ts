import { callsRoutes } from '@kadr/contract/calls/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { callsMigrations } from './migrations.ts';
import { callsRepository } from './repository.ts';
import { callsService } from './service.ts';
import './tables.ts';

/** One-to-one calls: HTTP actions, `call-*` socket events, the reconnection grace period, chat entries. */
export const callsModule = defineModule({
  name: 'calls',
  migrations: callsMigrations,
  async register(api, ctx) {
    const calls = callsService({
      repo: callsRepository(ctx.db.kysely),
      gateway: ctx.gateway,
      messages: ctx.messenger.messages,
      tokens: ctx.mediaPlane.tokens,
      limits: ctx.config.calls,
      rateLimits: ctx.limits,
      log: api.log,
      events: ctx.events,
    });

    ctx.gateway.onDisconnect((socket) => {
      calls.socketGone(socket.id).catch((err) => api.log.error({ err }, 'call socket update failed'));
    });

    registerRoutes(
      api,
      callsRoutes,
      {
        start: async (req) => {
          // Privacy and blocks (settings module): a refused call answers 403 with the reason.
          await ctx.settings.assertCanCall(req.userId, req.body.user_id);
          // The service raises `call.incoming` when the call starts ringing.
          return calls.start(req.userId, req.body);
        },
        current: async (req) => ({ call: await calls.current(req.userId) }),
        get: (req) => calls.get(req.userId, req.params.id),
        accept: (req) => calls.accept(req.userId, req.params.id, req.body),
        reject: (req) => calls.reject(req.userId, req.params.id),
        end: (req) => calls.end(req.userId, req.params.id),
        connected: (req) => calls.connected(req.userId, req.params.id),
        resume: (req) => calls.resume(req.userId, req.params.id, req.body.socket_id),
        token: (req) => calls.token(req.userId, req.params.id),
      },
      { tag: 'calls' },
    );

    return { services: calls, close: () => calls.close() };
  },
});
