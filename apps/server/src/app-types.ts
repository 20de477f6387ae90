import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Bus } from './lib/bus.ts';
import type { RateLimits } from './lib/limits.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import type { AuthService } from './modules/auth/service.ts';
import type { MediaPlaneService } from './modules/livekit/service.ts';
import type { MediaServerProbe } from './modules/livekit/status.ts';
import type { MediaModule } from './modules/media/module.ts';
import type { Messenger } from './modules/messenger/index.ts';
import type { ProfilesService } from './modules/profiles/service.ts';
import type { Gateway } from './realtime/gateway.ts';
import type { Storage } from './storage/storage.ts';

/** Everything a module needs, built once from config in app.ts and handed down. */
export interface AppContext {
  config: Config;
  db: Db;
  redis: { client: Redis; subscriber: Redis } | null;
  bus: Bus;
  limiter: RateLimiter;
  /** The named rate limits every service consumes (lib/limits.ts); shared through Redis when configured. */
  limits: RateLimits;
  storage: Storage;
  auth: AuthService;
  profiles: ProfilesService;
  mediaServer: MediaServerProbe;
  /** LiveKit tokens (stream, call, voice rooms) and the room state kept from its webhooks. */
  mediaPlane: MediaPlaneService;
  gateway: Gateway;
  /** Personal chats and favorites: message and chat services (groups and channels build on them). */
  messenger: Messenger;
  /** Media feed: posts, uploads, the job queue and the tagger (reusable processing in modules/media/processing). */
  media: MediaModule;
  /** What each registered module (modules/index.ts) returned as its services, by module name. */
  modules: Record<string, unknown>;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type AuthMode = 'required' | 'optional';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The signed-in user's id, or null for a guest. */
    userId: number | null;
    /** The bearer token the request carried, when it was valid. */
    token: string | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}
