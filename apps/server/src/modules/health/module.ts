import type { HealthResponse } from '@kadr/contract';
import { healthRoutes } from '@kadr/contract/health/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';

const startedAt = Date.now();

/** GET /health: the database, the media server (after the livekit module) and the realtime adapter. */
export const healthModule = defineModule({
  name: 'health',
  async register(api, ctx) {
    const { db, config } = ctx;
    registerRoutes(
      api,
      healthRoutes,
      {
        get: async (_req, reply) => {
          const [dbOk, media] = await Promise.all([db.ping(), ctx.mediaServer.status()]);
          const body: HealthResponse = {
            status: dbOk ? 'ok' : 'degraded',
            database: { status: dbOk ? 'ok' : 'unavailable', engine: db.engine },
            media_server: { status: media, url: ctx.mediaServer.url },
            realtime: { adapter: config.redisUrl ? 'redis' : 'memory' },
            version: ctx.config.version,
            uptime_s: Math.round((Date.now() - startedAt) / 1000),
          };
          return reply.code(dbOk ? 200 : 503).send(body);
        },
      },
      { tag: 'operations' },
    );
    return { services: {} };
  },
});
