import client from 'prom-client';
import type { App } from '../app-types.ts';

/** Prometheus metrics at /metrics (outside /api so a scraper needs no token). */
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
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
