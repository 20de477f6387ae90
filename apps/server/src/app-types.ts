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
import type { Events } from './lib/events.ts';
import type { RateLimits } from './lib/limits.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import type { Gateway } from './realtime/gateway.ts';
import type { Storage } from './storage/storage.ts';

/**
 * The parts app.ts builds from config before any module: no capability's types here, so a module
 * importing this file never imports the app's aggregate back (no cycle).
 */
export interface SharedParts {
  config: Config;
  db: Db;
  redis: { client: Redis; subscriber: Redis } | null;
  bus: Bus;
  /** In-process domain events (lib/events.ts): a like, a follow, a message — for notifications and push. */
  events: Events;
  limiter: RateLimiter;
  /** The named rate limits every service consumes (lib/limits.ts); shared through Redis when configured. */
  limits: RateLimits;
  storage: Storage;
  /** Socket.IO: rooms, emits to users, presence audience providers. */
  gateway: Gateway;
  log: FastifyBaseLogger;
}

/**
 * What the modules built so far provide, by name. Each module declares its own entry where its
 * services are made (declaration merging), e.g. in modules/messenger/module.ts:
 * `declare module '../../app-types.ts' { interface ModuleServices { messenger: Messenger } }`.
 * A module reads only the services of modules listed before it in modules/index.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module through declaration merging.
export interface ModuleServices {}

/** The `ctx` handed to every module's `register`: the shared parts plus the services built before it. */
export interface AppContext extends SharedParts, ModuleServices {
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
