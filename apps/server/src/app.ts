import type http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { API_PREFIX } from '@kadr/contract';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { App, AppContext, SharedParts } from './app-types.ts';
import type { Config } from './config.ts';
import { type Db, migrateToLatest, openDatabase } from './db/database.ts';
import { scheduleEmbeddedMaintenance } from './db/maintenance.ts';
import { memoryBus, redisBus } from './lib/bus.ts';
import { createEvents } from './lib/events.ts';
import { createLimits } from './lib/limits.ts';
import { memoryRateLimiter, redisRateLimiter } from './lib/rate-limiter.ts';
import { COMPRESS_THRESHOLD } from './lib/stored-json.ts';
import { moduleMigrations, serverModules } from './modules/index.ts';
import { registerSignalProxy, SIGNAL_PATH } from './modules/livekit/signal-proxy.ts';
import { registerAuth } from './plugins/auth.ts';
import { clientErrorHandler, refuseLongUrl } from './plugins/client-errors.ts';
import { registerErrorHandling, registerJsonParser } from './plugins/errors.ts';
import { metricsRoutes } from './plugins/metrics.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { frameworkErrors, registerTextNormaliser, registerValidation } from './plugins/validation.ts';
import { registerWeb } from './plugins/web.ts';
import { registerPageCause } from './realtime/cause.ts';
import { memoryJournal, redisJournal } from './realtime/event-journal.ts';
import { createGateway } from './realtime/gateway.ts';
import { memoryPresence, redisPresence } from './realtime/presence.ts';
import { type DataDirLock, lockDataDir } from './storage/data-dir-lock.ts';
import { s3Storage } from './storage/s3.ts';
import { localStorage } from './storage/storage.ts';

export interface BuildOptions {
  /** An already opened database (tests share one per file); otherwise opened from config. */
  db?: Db;
  /** Run migrations while building (default true). */
  migrate?: boolean;
  /** The process's logger (main.ts); without it the app makes its own from config. */
  logger?: FastifyBaseLogger;
  /** Serve HTTPS with this key and certificate (HTTPS=true: lib/self-signed.ts). */
  https?: { key: string; cert: string };
  /** The embedded data directory's lock when the caller already took it (main.ts, before LiveKit starts). */
  dataDirLock?: DataDirLock;
}

/** Redis and Socket.IO's adapter for it are loaded only by a server that scales out (~1.6 MB of heap, ~9 MB resident). */
async function connectRedis(url: string) {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await client.connect();
  const subscriber = client.duplicate();
  await subscriber.connect().catch(() => undefined);
  return { client, subscriber };
}

/** Builds the whole server (plugins, then modules). It never listens; main.ts and tests decide that. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    // main.ts hands its process logger (lib/logger.ts: pretty or JSON, shared with LiveKit's lines); tests and
    // tools log as pino's JSON at their level, or not at all.
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger:
            config.logLevel === 'silent'
              ? false
              : { level: config.logLevel, redact: ['req.headers.authorization'] },
        }),
    ...(options.https
      ? {
          // The app's type is the HTTP server's; an HTTPS server is one with TLS in front (same request API).
          serverFactory: (handler: http.RequestListener) =>
            https.createServer(options.https as https.ServerOptions, handler) as unknown as http.Server,
        }
      : {}),
    bodyLimit: config.bodyLimitBytes,
    // Headers or a body trickled byte by byte must not hold a connection forever; Node checks the
    // deadlines on an interval (30 s by default), so check often enough for them to mean something.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1000, config.headersTimeoutMs / 2)),
    },
    trustProxy: config.trustProxy,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    // Long enough for any parameter a URL can carry, so the route's schema answers 400, not Fastify's 414.
    // (Under routerOptions: Fastify 5 warns on every start about the top-level option.)
    routerOptions: { maxParamLength: 16_384 },
    // Fastify's 10 s default fails a start on a loaded machine (a plugin such as swagger-ui waiting for
    // the CPU); a plugin that really hangs still fails the start, after two minutes.
    pluginTimeout: 120_000,
    frameworkErrors,
    // Headers past Node's maxHeaderSize, a timed-out or malformed request: `{ error, code }`, not English.
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // One process per embedded database (PGlite has no locking of its own); released when the app closes.
  const dataDirLock =
    !options.db && !config.databaseUrl ? (options.dataDirLock ?? lockDataDir(config.dataDir)) : null;
  const db =
    options.db ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pg'),
      log: app.log,
    }));
  if (options.migrate !== false) await migrateToLatest(db, moduleMigrations());
  const maintenance = scheduleEmbeddedMaintenance(db, config.pgliteMaintenanceMs, app.log);

  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const bus = redis ? redisBus(redis.client, redis.subscriber, `${config.redisPrefix}:bus:`) : memoryBus();
  const limiter = redis ? redisRateLimiter(redis.client, `${config.redisPrefix}:rl:`) : memoryRateLimiter();
  const { authPerIp, authPerUsername, windowMs } = config.rateLimit;
  const limits = createLimits(limiter, {
    'auth.register': { count: authPerIp, windowMs },
    'auth.login': { count: authPerIp, windowMs },
    'auth.login-failure': { count: authPerUsername, windowMs },
    ...config.rateLimits,
  });
  const storage = config.s3 ? await s3Storage(config.s3) : localStorage(path.join(config.dataDir, 'media'));
  const gateway = createGateway(app.server, {
    // Sockets connect only once the server listens, after every module is registered.
    resolveSession: (sessionId) => ctx.auth.resolveSession(sessionId),
    sessionId: (token) => ctx.auth.sessionId(token),
    sessionActive: (sessionId) => ctx.auth.sessionActive(sessionId),
    presence: redis ? redisPresence(redis.client, `${config.redisPrefix}:presence:`) : memoryPresence(),
    journal: redis ? redisJournal(redis.client, `${config.redisPrefix}:journal:`) : memoryJournal(),
    redisPrefix: config.redisPrefix,
    setLastSeen: (userId, at) => ctx.profiles.setLastSeen(userId, at),
    redis: redis && { ...redis, createAdapter: (await import('@socket.io/redis-adapter')).createAdapter },
    log: app.log,
  });

  const events = createEvents((name, error) =>
    app.log.error({ err: error, event: name }, 'domain event listener failed'),
  );
  const shared: SharedParts = {
    config,
    db,
    redis,
    bus,
    events,
    limiter,
    limits,
    storage,
    gateway,
    log: app.log,
  };
  // The modules fill in their services (ctx.auth, ctx.profiles, …) in list order as they register.
  const ctx = { ...shared, modules: {} } as AppContext;
  app.decorate('ctx', ctx);
  const closers: (() => Promise<void>)[] = [];

  app.addHook('preClose', async () => {
    for (const close of closers.reverse()) await close();
    await maintenance.stop();
    await events.idle();
    await gateway.close();
    // Closing the sockets runs their disconnect handlers (last seen, presence notices), whose events may
    // still be at work: let them finish before Redis and the database close under them.
    await events.idle();
  });
  app.addHook('onClose', async () => {
    limiter.close();
    await bus.close();
    if (redis) await Promise.all([redis.client.quit(), redis.subscriber.quit()]).catch(() => undefined);
    if (!options.db) await db.close();
    dataDirLock?.release();
  });

  registerErrorHandling(app);
  app.addHook('onRequest', refuseLongUrl);
  registerPageCause(app);
  registerValidation(app);
  registerTextNormaliser(app);
  registerJsonParser(app);
  registerSecurityHeaders(app, config);
  await app.register(multipart, {
    limits: { fileSize: config.avatarMaxBytes, files: 10, fields: 20, fieldSize: 64 * 1024 },
  });
  registerAuth(app);
  await registerOpenApi(app);

  await app.register(
    async (api) => {
      // JSON answers only (this scope): built assets are precompressed, media is already compressed.
      await api.register(compress, {
        threshold: COMPRESS_THRESHOLD,
        encodings: ['br', 'gzip'],
        brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
        zlibOptions: { level: 6 },
      });
      for (const module of serverModules) {
        const handle = await module.register(api, ctx);
        ctx.modules[module.name] = handle.services;
        if (handle.close) closers.push(handle.close);
      }
    },
    { prefix: API_PREFIX },
  );
  await app.register(metricsRoutes);
  // The embedded LiveKit's signalling, through this port (main.ts hands browsers the path when it started one).
  if (config.livekit.url && config.livekit.publicUrl === SIGNAL_PATH) {
    const target = new URL(config.livekit.url);
    registerSignalProxy(app, { host: target.hostname, port: Number(target.port) });
  }
  await registerWeb(app);
  return app;
}
