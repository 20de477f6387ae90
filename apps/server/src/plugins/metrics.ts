import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, ErrorText } from '@kadr/contract';
import client from 'prom-client';
import type { App } from '../app-types.ts';

/**
 * Prometheus metrics at /metrics, outside /api, for a scraper holding METRICS_TOKEN; without the
 * token configured they are not served at all (they describe the process to anyone who asks).
 */
export async function metricsRoutes(app: App) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const sockets = new client.Gauge({
    name: 'kadr_sockets_connected',
    help: 'Socket.IO connections on this node',
    registers: [registry],
    collect() {
      this.set(app.ctx.gateway.io.engine.clientsCount);
    },
  });
  void sockets;
  const expected = app.ctx.config.metricsToken ? Buffer.from(`Bearer ${app.ctx.config.metricsToken}`) : null;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply.code(404).send({ error: ErrorText.notFound, code: ErrorCode.notFound });
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
