import type { Server as HttpServer } from 'node:http';
import {
  type ClientToServerEvents,
  type OnlineEvent,
  rooms,
  type ServerToClientEvents,
  SOCKET_PATH,
} from '@kadr/contract';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { HEARTBEAT_MS, type PresenceStore } from './presence.ts';

interface SocketData {
  userId: number;
  sessionId: string;
}

const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export type KadrServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type KadrSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

/** The user ids who should hear about a user's presence (followers; chat peers once the messenger adds them). */
export type AudienceProvider = (userId: number) => Promise<number[]>;

export interface PresenceFilter {
  audience(owner: number, viewers: number[]): Promise<number[]>;
  visible(viewer: number, owners: number[]): Promise<number[]>;
}

export interface GatewayDeps {
  resolveToken(token: string): Promise<number | null>;
  /** The session a token belongs to; its sockets share the room `session:<id>`. */
  sessionId(token: string): string;
  presence: PresenceStore;
  setLastSeen(userId: number, at: Date): Promise<void>;
  redis: { client: Redis; subscriber: Redis } | null;
  redisPrefix: string;
  log: FastifyBaseLogger;
}

export interface Gateway {
  io: KadrServer;
  emitToUser<E extends keyof ServerToClientEvents>(
    userId: number,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /**
   * `provider(u)`: who hears u's presence. `watching(v)`, its inverse: whose presence v hears — it answers
   * `presence:query` in one call; without it each queried id is checked with `provider`.
   */
  addAudienceProvider(provider: AudienceProvider, watching?: AudienceProvider): void;
  onlineAmong(userIds: number[]): Promise<number[]>;
  /**
   * Privacy on top of the audiences (settings module): `audience(owner, viewers)` keeps those who may
   * hear owner's `online`/`offline`; `visible(viewer, owners)` keeps the owners `presence:query` may report.
   */
  setPresenceFilter(filter: PresenceFilter): void;
  /** Disconnects this node's sockets of an ended session (every node is told; see AuthService.onSessionEnded). */
  endSession(sessionId: string): void;
  close(): Promise<void>;
}

export function createGateway(httpServer: HttpServer, deps: GatewayDeps): Gateway {
  const io: KadrServer = new Server(httpServer, {
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    serveClient: false,
    // Idle sockets are cheap; keep per-connection buffers small so one node holds many of them.
    perMessageDeflate: false,
    httpCompression: false,
    maxHttpBufferSize: 1e6,
    pingInterval: 25_000,
    pingTimeout: 20_000,
  });
  const adapterClients = deps.redis ? [deps.redis.client.duplicate(), deps.redis.client.duplicate()] : [];
  // The adapter publishes without awaiting: an emit racing the shutdown (its client already quit) would leave
  // a rejected promise ("Connection is closed") unhandled. Such a failure is logged instead.
  const publisher = adapterClients[0];
  if (publisher) {
    const publish = publisher.publish.bind(publisher) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(publisher, {
      publish: (...args: unknown[]) => {
        const sent = publish(...args);
        sent.catch((err: unknown) => deps.log.warn({ err }, 'socket.io adapter publish failed'));
        return sent;
      },
    });
  }
  if (adapterClients.length === 2)
    io.adapter(createAdapter(adapterClients[0], adapterClients[1], { key: `${deps.redisPrefix}:socket.io` }));
  const audienceProviders: { audience: AudienceProvider; watching?: AudienceProvider }[] = [];
  let presenceFilter: PresenceFilter | null = null;
  // Presence work still running, so shutdown can wait for it before Redis and the database close.
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const p = work
      .catch((err) => deps.log.error({ err }, 'presence update failed'))
      .finally(() => pending.delete(p));
    pending.add(p);
  };

  async function audience(userId: number): Promise<number[]> {
    const lists = await Promise.all(audienceProviders.map((p) => p.audience(userId)));
    return [...new Set(lists.flat())].filter((id) => id !== userId);
  }

  /** Of `ids`, those whose presence `viewer` may see: the same audience `online` events go to. */
  async function watchable(viewer: number, ids: number[]): Promise<number[]> {
    // Your own presence is yours to see (another device of yours asks, e.g.).
    const allowed = new Set<number>([viewer]);
    for (const p of audienceProviders) {
      if (p.watching) for (const id of await p.watching(viewer)) allowed.add(id);
      else
        for (const id of ids)
          if (!allowed.has(id) && (await p.audience(id)).includes(viewer)) allowed.add(id);
    }
    const watched = ids.filter((id) => allowed.has(id));
    return presenceFilter ? presenceFilter.visible(viewer, watched) : watched;
  }

  async function announce(userId: number, event: OnlineEvent) {
    let ids = await audience(userId);
    if (presenceFilter && ids.length > 0) ids = await presenceFilter.audience(userId, ids);
    if (ids.length > 0) io.to(ids.map(rooms.user)).emit('online', event);
  }

  /** Every HEARTBEAT_MS: this node is alive; users left online by a dead node (or put back) are announced. */
  async function beat() {
    const { online, offline } = await deps.presence.heartbeat();
    for (const userId of online) await announce(userId, { type: 'online', sender_id: userId });
    const at = new Date();
    for (const userId of offline) {
      await deps.setLastSeen(userId, at);
      await announce(userId, { type: 'offline', sender_id: userId, last_seen: at.toISOString() });
    }
  }
  let beating: Promise<void> | null = null;
  const tick = () => {
    // A beat slower than the interval (a loaded machine) is not stacked with the next one.
    if (beating) return;
    beating = beat().finally(() => {
      beating = null;
    });
    track(beating);
  };
  tick();
  const heartbeat = setInterval(tick, HEARTBEAT_MS);
  heartbeat.unref();

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string' || token === '') return next(new Error('unauthorized'));
    try {
      const userId = await deps.resolveToken(token);
      if (userId === null) return next(new Error('unauthorized'));
      socket.data.userId = userId;
      socket.data.sessionId = deps.sessionId(token);
      next();
    } catch (err) {
      deps.log.error({ err }, 'socket handshake failed');
      next(new Error('unavailable'));
    }
  });

  io.on('connection', (socket: KadrSocket) => {
    const { userId } = socket.data;
    socket.join([rooms.user(userId), sessionRoom(socket.data.sessionId)]);
    track(
      deps.presence
        .connect(userId, socket.id)
        .then((cameOnline) =>
          cameOnline ? announce(userId, { type: 'online', sender_id: userId }) : undefined,
        ),
    );

    socket.on('presence:query', (userIds, ack) => {
      if (typeof ack !== 'function') return;
      const ids = Array.isArray(userIds) ? userIds.filter((id) => Number.isInteger(id)).slice(0, 500) : [];
      watchable(userId, ids)
        .then((visible) => deps.presence.onlineAmong(visible))
        .then(ack)
        .catch(() => ack([]));
    });

    socket.on('disconnect', () => {
      track(
        deps.presence.disconnect(userId, socket.id).then(async (wentOffline) => {
          if (!wentOffline) return;
          const at = new Date();
          await deps.setLastSeen(userId, at);
          await announce(userId, { type: 'offline', sender_id: userId, last_seen: at.toISOString() });
        }),
      );
    });
  });

  return {
    io,
    emitToUser(userId, event, ...args) {
      io.to(rooms.user(userId)).emit(event, ...args);
    },
    addAudienceProvider(audience, watching) {
      audienceProviders.push({ audience, ...(watching ? { watching } : {}) });
    },
    onlineAmong: (ids) => deps.presence.onlineAmong(ids),
    setPresenceFilter(filter) {
      presenceFilter = filter;
    },
    endSession(sessionId) {
      io.local.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    /** Drops every socket of this node; the HTTP server itself is closed by Fastify. */
    async close() {
      clearInterval(heartbeat);
      io.local.disconnectSockets(true);
      io.engine.close();
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await deps.presence.leave().catch((err) => deps.log.error({ err }, 'presence leave failed'));
      await Promise.all(adapterClients.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
