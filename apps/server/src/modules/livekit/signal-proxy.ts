import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { App } from '../../app-types.ts';

/**
 * Where browsers reach the embedded LiveKit's signalling: a path on Kadr's own port, so whatever address and
 * scheme the page was opened with (localhost, the LAN address from a phone, https) also reaches the media
 * server — as wss when the page is https, which a page on https needs (docs/adr/0018-lan-media.md). The
 * media itself (ICE) goes to the advertised LAN address, not through here.
 */
export const SIGNAL_PATH = '/livekit';

/** Hop-by-hop headers a proxy must not forward (RFC 9110 §7.6.1), except the upgrade handshake's own. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer']);

/**
 * Proxies `/livekit/…` to the embedded LiveKit on loopback: WebSocket upgrades (the signalling, `/rtc`) as raw
 * byte pipes, and plain GETs (`/rtc/validate`, which livekit-client asks after a failed connect; the
 * connection warm-up) through fetch. Registered only when Kadr started the LiveKit child.
 */
export function registerSignalProxy(app: App, target: { host: string; port: number }) {
  const inner = (url: string) => url.slice(SIGNAL_PATH.length) || '/';

  app.server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    if (url !== SIGNAL_PATH && !url.startsWith(`${SIGNAL_PATH}/`) && !url.startsWith(`${SIGNAL_PATH}?`))
      return;
    const upstream = net.connect(target.port, target.host);
    const fail = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', fail);
    client.once('error', fail);
    upstream.once('connect', () => {
      const lines = [`${req.method ?? 'GET'} ${inner(url)} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] as string;
        const lower = name.toLowerCase();
        if (lower === 'host') continue;
        lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`Host: ${target.host}:${target.port}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });

  const forward = async (req: { url: string; method: string; headers: Record<string, unknown> }) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !HOP.has(name) && name !== 'host') headers.set(name, value);
    return fetch(`http://${target.host}:${target.port}${inner(req.url)}`, {
      method: req.method,
      headers,
      signal: AbortSignal.timeout(15_000),
    });
  };
  for (const url of [SIGNAL_PATH, `${SIGNAL_PATH}/*`]) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      schema: { hide: true },
      handler: async (req, reply) => {
        const res = await forward(req).catch(() => null);
        if (!res)
          return reply.code(502).send({ error: 'Медиасервер недоступен', code: 'media_server_unavailable' });
        const type = res.headers.get('content-type');
        if (type) reply.header('content-type', type);
        return reply.code(res.status).send(Buffer.from(await res.arrayBuffer()));
      },
    });
  }
}
