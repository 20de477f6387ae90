import type { Server as HttpServer } from 'node:http';
import {
  type ClientToServerEvents,
  normalizeInput,
  type OnlineEvent,
  rooms,
  type ServerToClientEvents,
  SOCKET_PATH,
  type SocketAuth,
  type TextProblem,
} from '@kadr/contract';
import type { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { textRefusal } from '../lib/text-refusal.ts';
import { causingPage, isPageId } from './cause.ts';
import { type EventJournal, memoryJournal } from './event-journal.ts';
import { HEARTBEAT_MS, type PresenceStore } from './presence.ts';

interface SocketData {
  userId: number;
  /** The session's id (its token's hash); the token itself is not kept (`RELEASED_HANDSHAKE`). */
  sessionId: string;
  /** The page that opened it (`SocketAuth.page`), whose writes over HTTP are not echoed to it (`pageSocket`). */
  page?: string;
  /** The typist's display name for group typing, looked up on the socket's first group keystroke. */
  typistName?: Promise<string>;
}

/**
 * How much earlier than the page's start `missed` looks: the page measured its age a moment before the
 * server reads it (the handshake's one-way travel, well under this on a slow mobile network). An event just
 * before the start costs a refetch, never a loss.
 */
export const MISSED_MARGIN_MS = 250;

/**
 * The handshake every socket shows once connected, shared by all of them. What Socket.IO built from the
 * upgrade request (its headers, query, url, time and the client's `auth`: ~0.4 KiB per idle socket) is read
 * only as the socket connects (`io.use`, `answerMissed`); what a handler needs later is in `socket.data`.
 */
const RELEASED_HANDSHAKE: KadrSocket['handshake'] = Object.freeze({
  headers: Object.freeze({}),
  time: '',
  address: '',
  xdomain: false,
  secure: false,
  issued: 0,
  url: '',
  query: Object.freeze({}),
  auth: Object.freeze({}),
});

/** engine.io's stand-in response of a websocket upgrade re-emits its socket's close (for middlewares). */
const UPGRADE_RESPONSE_CLOSE = /^\(\) => this\.emit\("close"\)$/;

/**
 * Lets go of the upgrade request once the socket has connected (~3.5 KiB per idle socket: the request object
 * with its headers, raw headers and stream state), and of the handshake built from it (`RELEASED_HANDSHAKE`).
 * Socket.IO keeps the request only for `socket.request` (nothing here reads it), and engine.io's stand-in
 * response holds it through a `close` listener on the TCP socket for the socket's whole life, to re-emit a
 * close nobody listens to (we register no engine middleware).
 */
export function releaseUpgrade(socket: Socket): void {
  const conn = socket.conn as unknown as {
    request: unknown;
    transport: { socket?: { _socket?: NodeJS.EventEmitter } };
  };
  conn.request = null;
  (socket as { handshake: Socket['handshake'] }).handshake = RELEASED_HANDSHAKE;
  const tcp = conn.transport.socket?._socket;
  if (!tcp) return;
  for (const listener of tcp.listeners('close'))
    if (UPGRADE_RESPONSE_CLOSE.test(String(listener)))
      tcp.removeListener('close', listener as (...args: unknown[]) => void);
}

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
  /** The session a token belongs to (kept on each socket, so an ended session drops its sockets). */
  sessionId(token: string): string;
  /** The user of an active session, by its id; null when it is unknown or ended. */
  resolveSession(sessionId: string): Promise<number | null>;
  /** A socket of the session sent an event: the session counts as used. */
  sessionActive?(sessionId: string): void;
  presence: PresenceStore;
  /** What each user was sent lately, for a page's first connection (memory when absent). */
  journal?: EventJournal;
  setLastSeen(userId: number, at: Date): Promise<void>;
  /** With Redis, Socket.IO's adapter for it (the caller loads the module only when Redis is configured). */
  redis: { client: Redis; subscriber: Redis; createAdapter: typeof createAdapter } | null;
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
   * `emitToUser` without one of the user's sockets (on whichever node it is): the one a `send-message` came
   * from, whose ack already carries the message.
   */
  emitToUserExcept<E extends keyof ServerToClientEvents>(
    socketId: string,
    userId: number,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /**
   * The socket of `userId` on this node that the page `page` opened (its handshake named the page, as its writes
   * do in `PAGE_HEADER`), if any: a write that page sent over HTTP is answered there, and that socket need not be
   * told of it again. Only the user's own sockets are looked at, so a page id names nobody else's.
   */
  pageSocket(userId: number, page: string): string | undefined;
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
  /**
   * Handles a client event on every socket through one listener shared by all of them (the socket is the
   * handler's first argument): no closure, context or listener array per socket per event (an idle
   * socket's memory).
   */
  handle<E extends keyof ClientToServerEvents>(
    event: E,
    handler: (socket: KadrSocket, ...args: Parameters<ClientToServerEvents[E]>) => void,
  ): void;
  /** Runs for every socket of this node that disconnects, after the gateway's own presence work. */
  onDisconnect(handler: (socket: KadrSocket) => void): void;
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
    // Upgrades on other paths belong to others (the LiveKit signalling proxy at /livekit): engine.io would
    // otherwise end any upgrade it does not own that has not answered within a second.
    destroyUpgrade: false,
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
  if (deps.redis && adapterClients.length === 2)
    io.adapter(
      deps.redis.createAdapter(adapterClients[0], adapterClients[1], {
        key: `${deps.redisPrefix}:socket.io`,
      }),
    );
  const journal = deps.journal ?? memoryJournal();
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
      // The same string the session cache is keyed by (one copy per socket, not two).
      const sessionId = deps.sessionId(token);
      const userId = await deps.resolveSession(sessionId);
      if (userId === null) return next(new Error('unauthorized'));
      socket.data.userId = userId;
      socket.data.sessionId = sessionId;
      const { page } = socket.handshake.auth as Partial<SocketAuth>;
      if (isPageId(page)) socket.data.page = page;
      next();
    } catch (err) {
      deps.log.error({ err }, 'socket handshake failed');
      next(new Error('unavailable'));
    }
  });

  // Listeners shared by every socket: EventEmitter calls them with the socket as `this`.
  const shared: Array<[string, (this: KadrSocket, ...args: unknown[]) => void]> = [];
  const disconnectHandlers: Array<(socket: KadrSocket) => void> = [];
  function handle(event: string, handler: (socket: KadrSocket, ...args: never[]) => void) {
    const call = handler as (socket: KadrSocket, ...args: unknown[]) => void;
    shared.push([
      event,
      function (this: KadrSocket, ...args: unknown[]) {
        if (event === 'disconnect') return call(this, ...args);
        deps.sessionActive?.(this.data.sessionId);
        // Every event's text passes the contract's normaliser, as every HTTP body does.
        const problems: TextProblem[] = [];
        for (let i = 0; i < args.length; i += 1) {
          if (typeof args[i] === 'function') continue;
          const normalized = normalizeInput(args[i], '', 0);
          args[i] = normalized.value;
          problems.push(...normalized.problems);
        }
        if (problems.length > 0) {
          const ack = args.at(-1);
          if (typeof ack === 'function') {
            const refusal = textRefusal(problems);
            ack({
              ok: false,
              status: 400,
              error: refusal.message,
              code: refusal.code,
              fields: refusal.fields,
            });
          }
          return;
        }
        call(this, ...args);
      },
    ]);
  }

  handle('presence:query', (socket, userIds: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const ids = Array.isArray(userIds) ? userIds.filter((id) => Number.isInteger(id)).slice(0, 500) : [];
    watchable(socket.data.userId, ids)
      .then((visible) => deps.presence.onlineAmong(visible))
      .then((online) => ack(online))
      .catch(() => ack([]));
  });

  handle('disconnect', (socket) => {
    const { userId } = socket.data;
    track(
      deps.presence.disconnect(userId, socket.id).then(async (wentOffline) => {
        if (!wentOffline) return;
        const at = new Date();
        await deps.setLastSeen(userId, at);
        await announce(userId, { type: 'offline', sender_id: userId, last_seen: at.toISOString() });
      }),
    );
    for (const handler of disconnectHandlers) handler(socket);
  });

  /**
   * A page's first connection says how long ago its data began to load (`auth.age`); it is told which events
   * went to its user since then, so it refetches what they changed — and nothing else.
   */
  function answerMissed(socket: KadrSocket) {
    const { age, page } = socket.handshake.auth as Partial<SocketAuth>;
    if (typeof age !== 'number' || !Number.isFinite(age) || age < 0) return;
    track(
      journal
        .since(socket.data.userId, Date.now() - age - MISSED_MARGIN_MS, isPageId(page) ? page : undefined)
        // Unknown (too old, or the journal unreachable): anything may have changed.
        .catch(() => null)
        .then((events) => socket.emit('missed', events ? { events, all: false } : { events: [], all: true })),
    );
  }

  io.on('connection', (socket: KadrSocket) => {
    const { userId } = socket.data;
    answerMissed(socket);
    releaseUpgrade(socket);
    socket.join(rooms.user(userId));
    for (const [event, listener] of shared) socket.on(event as 'disconnect', listener);
    track(
      deps.presence
        .connect(userId, socket.id)
        .then((cameOnline) =>
          cameOnline ? announce(userId, { type: 'online', sender_id: userId }) : undefined,
        ),
    );
  });

  return {
    io,
    emitToUser(userId, event, ...args) {
      journal.note(userId, event, causingPage());
      io.to(rooms.user(userId)).emit(event, ...args);
    },
    emitToUserExcept(socketId, userId, event, ...args) {
      journal.note(userId, event, causingPage());
      io.to(rooms.user(userId))
        .except(socketId)
        .emit(event, ...args);
    },
    pageSocket(userId, page) {
      const namespace = io.of('/');
      for (const id of namespace.adapter.rooms.get(rooms.user(userId)) ?? []) {
        if (namespace.sockets.get(id)?.data.page === page) return id;
      }
      return undefined;
    },
    addAudienceProvider(audience, watching) {
      audienceProviders.push({ audience, ...(watching ? { watching } : {}) });
    },
    onlineAmong: (ids) => deps.presence.onlineAmong(ids),
    setPresenceFilter(filter) {
      presenceFilter = filter;
    },
    handle: handle as Gateway['handle'],
    onDisconnect(handler) {
      disconnectHandlers.push(handler);
    },
    endSession(sessionId) {
      // A scan of this node's sockets instead of a room per session (a Set and a key per idle socket):
      // sessions end rarely, sockets idle all the time.
      for (const socket of io.of('/').sockets.values())
        if (socket.data.sessionId === sessionId) socket.disconnect(true);
    },
    /** Drops every socket of this node; the HTTP server itself is closed by Fastify. */
    async close() {
      clearInterval(heartbeat);
      io.local.disconnectSockets(true);
      io.engine.close();
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await deps.presence.leave().catch((err) => deps.log.error({ err }, 'presence leave failed'));
      await journal.close();
      await Promise.all(adapterClients.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
