import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { API_PREFIX } from '@kadr/contract';
import Fastify, { LogController } from 'fastify';
import { Redis } from 'ioredis';
import type { App, AppContext } from './app-types.ts';
import type { Config } from './config.ts';
import { type Db, migrateToLatest, openDatabase } from './db/database.ts';
import { memoryBus, redisBus } from './lib/bus.ts';
import { memoryRateLimiter, redisRateLimiter } from './lib/rate-limiter.ts';
import { authRepository } from './modules/auth/repository.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { authService } from './modules/auth/service.ts';
import { healthRoutes, metricsRoutes } from './modules/health/routes.ts';
import { moduleMigrations, serverModules } from './modules/index.ts';
import { mediaRoomsRepository } from './modules/livekit/repository.ts';
import { livekitRoomRoutes, livekitWebhookRoutes } from './modules/livekit/routes.ts';
import { mediaPlaneService } from './modules/livekit/service.ts';
import { livekitProbe } from './modules/livekit/status.ts';
import { mediaTokenIssuer } from './modules/livekit/tokens.ts';
import { createMediaModule } from './modules/media/module.ts';
import { createMessenger } from './modules/messenger/index.ts';
import { profileCache } from './modules/profiles/cache.ts';
import { profilesRepository } from './modules/profiles/repository.ts';
import { profileRoutes } from './modules/profiles/routes.ts';
import { profilesService } from './modules/profiles/service.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandling, registerJsonParser } from './plugins/errors.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWeb } from './plugins/web.ts';
import { createGateway } from './realtime/gateway.ts';
import { memoryPresence, redisPresence } from './realtime/presence.ts';
import { localStorage } from './storage/storage.ts';

export interface BuildOptions {
  /** An already opened database (tests share one per file); otherwise opened from config. */
  db?: Db;
  /** Run migrations while building (default true). */
  migrate?: boolean;
  /** Pretty logs for a terminal. */
  prettyLogs?: boolean;
}

async function connectRedis(url: string) {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await client.connect();
  const subscriber = client.duplicate();
  await subscriber.connect().catch(() => undefined);
  return { client, subscriber };
}

/** Builds the whole server (plugins, then modules). It never listens; main.ts and tests decide that. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization'],
            ...(options.prettyLogs
              ? {
                  transport: {
                    target: 'pino-pretty',
                    options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
                  },
                }
              : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    ajv: { customOptions: { strict: false, removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const db =
    options.db ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pg'),
      log: app.log,
    }));
  if (options.migrate !== false) await migrateToLatest(db, moduleMigrations());

  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const bus = redis ? redisBus(redis.client, redis.subscriber, `${config.redisPrefix}:bus:`) : memoryBus();
  const limiter = redis ? redisRateLimiter(redis.client, `${config.redisPrefix}:rl:`) : memoryRateLimiter();
  const storage = localStorage(path.join(config.dataDir, 'media'));
  const profiles = profilesService({
    repo: profilesRepository(db.kysely),
    storage,
    cache: await profileCache(bus, config.profileCacheTtlMs),
  });
  const auth = await authService({
    repo: authRepository(db.kysely),
    limiter,
    limits: config.rateLimit,
    bus,
    tokenCacheTtlMs: config.tokenCacheTtlMs,
  });
  const gateway = createGateway(app.server, {
    resolveToken: auth.resolveToken,
    presence: redis ? redisPresence(redis.client, `${config.redisPrefix}:presence:`) : memoryPresence(),
    redisPrefix: config.redisPrefix,
    setLastSeen: profiles.setLastSeen,
    redis,
    log: app.log,
  });
  gateway.addAudienceProvider(profiles.followerIds);
  const media = await createMediaModule({ config, db, bus, storage, gateway, profiles, log: app.log });
  const messenger = createMessenger({
    db: db.kysely,
    gateway,
    storage,
    attachmentMaxBytes: config.messageAttachmentMaxBytes,
    log: app.log,
    resolveToken: auth.resolveToken,
  });

  const { livekit } = config;
  const ctx: AppContext = {
    config,
    db,
    redis,
    bus,
    limiter,
    storage,
    auth,
    profiles,
    mediaServer: livekitProbe(config.livekit.url),
    mediaPlane: mediaPlaneService({
      tokens: mediaTokenIssuer({
        serverUrl: livekit.publicUrl,
        apiKey: livekit.apiKey,
        apiSecret: livekit.apiSecret,
      }),
      repo: mediaRoomsRepository(db.kysely),
      apiKey: livekit.apiKey,
      apiSecret: livekit.apiSecret,
    }),
    gateway,
    messenger,
    media,
    modules: {},
  };
  app.decorate('ctx', ctx);
  const closers: (() => Promise<void>)[] = [];

  app.addHook('preClose', async () => {
    for (const close of closers.reverse()) await close();
    await media.close();
    await gateway.close();
  });
  app.addHook('onClose', async () => {
    limiter.close();
    await bus.close();
    if (redis) await Promise.all([redis.client.quit(), redis.subscriber.quit()]).catch(() => undefined);
    if (!options.db) await db.close();
  });

  registerErrorHandling(app);
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
        threshold: 1024,
        encodings: ['br', 'gzip'],
        brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
        zlibOptions: { level: 6 },
      });
      await api.register(authRoutes);
      await api.register(profileRoutes);
      await api.register(healthRoutes);
      for (const routes of media.routes) await api.register(routes);
      await api.register(messenger.routes);
      await api.register(livekitWebhookRoutes);
      await api.register(livekitRoomRoutes);
      for (const module of serverModules) {
        const handle = await module.register(api, ctx);
        ctx.modules[module.name] = handle.services;
        if (handle.close) closers.push(handle.close);
      }
    },
    { prefix: API_PREFIX },
  );
  await app.register(metricsRoutes);
  await registerWeb(app);
  return app;
}
