import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseLimitOverrides } from './lib/limits.ts';
import { MEDIA_SCHEDULINGS, type MediaScheduling } from './lib/thread-priority.ts';
import type { S3Config } from './storage/s3.ts';

/** Environment schema, parsed once at start. A wrong value stops the process with a clear message. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * How often the embedded database is vacuumed, analysed and checkpointed (PGLITE_MAINTENANCE_MS; 0 never).
   * PostgreSQL does this itself; PGlite has no background processes (db/maintenance.ts).
   */
  pgliteMaintenanceMs: number;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel, so deployments can share one Redis. */
  redisPrefix: string;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: `pretty` lines for people (default) or pino's `json` for a collector (lib/logger.ts). */
  logFormat: 'pretty' | 'json';
  webDist: string;
  /** WEB_SOURCE_MAPS: serve the web app's source maps (`*.map`); off by default, so the sources stay private. */
  webSourceMaps: boolean;
  bodyLimitBytes: number;
  avatarMaxBytes: number;
  /** Largest single chat attachment (MESSAGE_ATTACHMENT_MAX_BYTES). */
  messageAttachmentMaxBytes: number;
  trustProxy: boolean;
  rateLimit: {
    /** Register + login attempts per IP per window. */
    authPerIp: number;
    /** Login attempts per username per window. */
    authPerUsername: number;
    windowMs: number;
  };
  /** Named limit overrides from RATE_LIMITS (lib/limits.ts lists the names and defaults). */
  rateLimits: Record<string, { count: number; windowMs: number }>;
  tokenCacheTtlMs: number;
  /** The product version, from the root package.json (what /api/v1/health reports). */
  version: string;
  /** Whole request (headers and body) must arrive within this (REQUEST_TIMEOUT_MS); 0 turns it off. */
  requestTimeoutMs: number;
  /** Request headers must arrive within this (HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it is not served. */
  metricsToken: string | null;
  /** A session unused this long stops working (SESSION_IDLE_TIMEOUT_MS). */
  sessionIdleTimeoutMs: number;
  /** A session this old stops working however much it is used (SESSION_MAX_AGE_MS). */
  sessionMaxAgeMs: number;
  profileCacheTtlMs: number;
  /**
   * Web push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT): without keys a pair is generated at
   * first start and kept in the database, so every node signs with the same one.
   */
  push: {
    vapidPublicKey: string | null;
    vapidPrivateKey: string | null;
    vapidSubject: string;
    /**
     * PUSH_ALLOW_INSECURE_ENDPOINTS (development and tests): plain-http, loopback and private push endpoints
     * are accepted. Refused with NODE_ENV=production.
     */
    allowInsecureEndpoints: boolean;
  };
  /** Media feed read cache (ADR 0004): how long an entry lives when no change notice arrives; 0 disables it. */
  feedCacheTtlMs: number;
  /**
   * Messenger backpressure (MESSAGE_SEND_QUEUE_MAX_WAIT_MS): once the oldest queued message insert, the
   * oldest statement waiting for the database, or the oldest of a crowd of sends in progress has waited
   * this long (a busy database), new sends are refused with 429 `server_busy` and Retry-After.
   */
  messageSendQueueMaxWaitMs: number;
  livekit: LivekitConfig;
  /**
   * Live streams (LIVESTREAM_HOST_TIMEOUT_MS: a stream whose host left the room this long ago ends by
   * itself; LIVESTREAM_HOST_JOIN_TIMEOUT_MS: one whose host never joined, this long after the start, at
   * least the host timeout). Live chat is limited by the named limit `live.chat` (RATE_LIMITS).
   */
  livestreams: {
    hostTimeoutMs: number;
    hostJoinTimeoutMs: number;
  };
  /** Post upload limits (MEDIA_MAX_VIDEO_BYTES, MEDIA_MAX_IMAGE_BYTES, MEDIA_MAX_CAROUSEL_IMAGES). */
  media: { maxVideoBytes: number; maxImageBytes: number; maxCarouselImages: number };
  /** One-to-one calls (CALL_RING_TIMEOUT_MS, CALL_RECONNECT_GRACE_MS, CALL_CONNECT_TIMEOUT_MS, CALL_SWEEP_MS). */
  calls: {
    /** Unanswered for this long → missed (spec: 45 s). */
    ringTimeoutMs: number;
    /** A side whose call socket is gone this long → the call ends. */
    reconnectGraceMs: number;
    /** Accepted but not both in the media room after this long → failed. */
    connectTimeoutMs: number;
    /** How often every node looks for calls whose deadline passed (another node's timer may be gone). */
    sweepMs: number;
  };
  /**
   * Durable job queue (JOBS_WORKER, JOBS_CONCURRENCY, JOBS_LIGHT_CONCURRENCY, JOBS_TIMEOUT_MS, JOBS_POLL_MS,
   * JOBS_LEASE_MS, JOBS_BACKOFF_MS, JOBS_MAX_BACKOFF_MS, JOBS_RETENTION_MS, UPLOADS_IN_FLIGHT_PER_USER).
   * `concurrency` is the heavy lane (video), `lightConcurrency` the light one (photos, sweeps); both default
   * from the machine's cores.
   */
  jobs: {
    worker: boolean;
    concurrency: number;
    lightConcurrency: number;
    /** A job running longer is stopped (its ffmpeg killed) and fails with a reason. */
    timeoutMs: number;
    /**
     * How the media processes give the cores to the server (lib/thread-priority.ts, ADR 0017). They read
     * MEDIA_SCHEDULING themselves; it is checked here so that a wrong value stops the start.
     */
    mediaScheduling: MediaScheduling;
    /** Finished jobs older than this are pruned. */
    retentionMs: number;
    uploadsInFlightPerUser: number;
    pollMs: number;
    leaseMs: number;
    backoffMs: number;
    maxBackoffMs: number;
  };
  /**
   * S3-compatible object storage for media (S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
   * S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_KEY_PREFIX, S3_PUBLIC_ENDPOINT, S3_PRESIGN_TTL_S); null keeps
   * media on the local disk under DATA_DIR/media.
   */
  s3: S3Config | null;
  /** Optional remote OpenAI-compatible vision tagger (AI_TAGGER_URL, AI_TAGGER_MODEL, AI_TAGGER_API_KEY). */
  aiTagger: {
    url: string | null;
    model: string;
    apiKey: string | null;
    /** Load the local model when an upload starts, so its job does not wait for it (AI_TAGGER_WARM; default on, off under NODE_ENV=test). */
    warm: boolean;
  };
  /**
   * Whether «Добавить демо-контент» is offered (DEMO_CONTENT): by default everywhere except NODE_ENV=production;
   * `true` allows it there too, `false` nowhere.
   */
  demoContent: boolean;
  /** MODERATOR_USERNAMES: accounts that moderate from the start (comma-separated, case-insensitive). */
  moderatorUsernames: string[];
  /**
   * HTTPS with a self-signed certificate generated into DATA_DIR/tls (HTTPS=true, or `npm start -- --https`), so a
   * phone on the LAN gets a secure context for its camera and microphone; LiveKit's signalling is then proxied
   * through Kadr's port as wss (docs/adr/0018-lan-media.md).
   */
  https: boolean;
}

export interface LivekitConfig {
  /** Where this server reaches LiveKit (LIVEKIT_URL); null while no media server is configured or started. */
  url: string | null;
  /** The URL handed to browsers in token answers; defaults to `url`. */
  publicUrl: string | null;
  apiKey: string;
  apiSecret: string;
  /** The bundled `livekit-server --dev` that main.ts starts when LIVEKIT_URL is unset. */
  embedded: {
    binary: string;
    /** The address LiveKit advertises to browsers (LIVEKIT_NODE_IP); null = the machine's LAN address, else 127.0.0.1. */
    nodeIp: string | null;
    /** Where LiveKit listens (LIVEKIT_BIND); null = loopback plus the advertised address. */
    bind: string[] | null;
    port: number;
    rtcTcpPort: number;
    udpPortStart: number;
    udpPortEnd: number;
  };
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function limitOverrides(env: Env) {
  try {
    return parseLimitOverrides(env.RATE_LIMITS);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(', ')}), got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} must use one of ${protocols.join(', ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A dotted IPv4 address, or null when unset. */
function ipv4(env: Env, name: string, label = name): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const parts = raw.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255))
    throw new ConfigError(`${label} must be an IPv4 address such as 192.168.1.20, got "${raw}"`);
  return raw;
}

function oneOf<const T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function prefix(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw))
    throw new ConfigError(`${name} must be 1-64 letters, digits, _ . or -, got "${raw}"`);
  return raw;
}

function portRange(env: Env, name: string, fallback: [number, number]): [number, number] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)-(\d+)$/.exec(raw);
  const start = Number(match?.[1]);
  const end = Number(match?.[2]);
  if (!match || start < 1024 || end > 65535 || end <= start) {
    throw new ConfigError(
      `${name} must be a port range like 50000-60000 (1024-65535, start < end), got "${raw}"`,
    );
  }
  return [start, end];
}

function insecurePushEndpoints(env: Env): boolean {
  const allowed = bool(env, 'PUSH_ALLOW_INSECURE_ENDPOINTS', false);
  if (allowed && env.NODE_ENV === 'production')
    throw new ConfigError(
      'PUSH_ALLOW_INSECURE_ENDPOINTS is for development; it cannot be set with NODE_ENV=production',
    );
  return allowed;
}

function aiTagger(env: Env): Config['aiTagger'] {
  const taggerUrl = url(env, 'AI_TAGGER_URL', ['http', 'https']);
  const model = env.AI_TAGGER_MODEL || '';
  if (taggerUrl && !model) throw new ConfigError('AI_TAGGER_URL is set, so AI_TAGGER_MODEL must be set too');
  return {
    url: taggerUrl,
    model,
    apiKey: env.AI_TAGGER_API_KEY || null,
    warm: bool(env, 'AI_TAGGER_WARM', env.NODE_ENV !== 'test'),
  };
}

function s3Config(env: Env): S3Config | null {
  const bucket = env.S3_BUCKET || '';
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => env[n]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set, so S3_BUCKET must be set too`);
    return null;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      `S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, . or -), got "${bucket}"`,
    );
  }
  const endpoint = url(env, 'S3_ENDPOINT', ['http', 'https']);
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  const keyPrefix = env.S3_KEY_PREFIX || '';
  if (keyPrefix && !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/$/.test(keyPrefix)) {
    throw new ConfigError(`S3_KEY_PREFIX must be folder names ending in /, like kadr/, got "${keyPrefix}"`);
  }
  return {
    bucket,
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    // An S3-compatible endpoint (MinIO) usually has no domain per bucket; AWS itself prefers virtual hosts.
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
    keyPrefix,
    publicEndpoint: url(env, 'S3_PUBLIC_ENDPOINT', ['http', 'https']),
    // Presigned URLs live at most 7 days; a URL is reused for one TTL window and valid for two.
    presignTtlSeconds: int(env, 'S3_PRESIGN_TTL_S', 3600, 60, 3 * 24 * 3600),
  };
}

/** The repository root: this file and the bundled server (apps/server/dist/main.mjs) both sit three directories below it. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

function rootVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

function livekitConfig(env: Env): LivekitConfig {
  const livekitUrl = url(env, 'LIVEKIT_URL', ['ws', 'wss', 'http', 'https']);
  const apiKey = env.LIVEKIT_API_KEY || '';
  const apiSecret = env.LIVEKIT_API_SECRET || '';
  if (livekitUrl && (!apiKey || !apiSecret)) {
    throw new ConfigError('LIVEKIT_URL is set, so LIVEKIT_API_KEY and LIVEKIT_API_SECRET must be set too');
  }
  if (Boolean(apiKey) !== Boolean(apiSecret)) {
    throw new ConfigError('LIVEKIT_API_KEY and LIVEKIT_API_SECRET are set together or not at all');
  }
  const port = int(env, 'LIVEKIT_PORT', 7880, 1, 65535);
  const rtcTcpPort = int(env, 'LIVEKIT_RTC_TCP_PORT', 7881, 1, 65535);
  const [udpPortStart, udpPortEnd] = portRange(env, 'LIVEKIT_RTC_UDP_PORTS', [50000, 60000]);
  if (port === rtcTcpPort) throw new ConfigError('LIVEKIT_PORT and LIVEKIT_RTC_TCP_PORT must differ');
  return {
    url: livekitUrl,
    publicUrl: url(env, 'LIVEKIT_PUBLIC_URL', ['ws', 'wss', 'http', 'https']) ?? livekitUrl,
    apiKey,
    apiSecret,
    embedded: {
      binary: path.resolve(env.LIVEKIT_BIN || path.join(repoRoot, '.tools/bin/livekit-server')),
      nodeIp: ipv4(env, 'LIVEKIT_NODE_IP'),
      bind: env.LIVEKIT_BIND
        ? env.LIVEKIT_BIND.split(',').map(
            (a, i) => ipv4({ a: a.trim() }, 'a', `LIVEKIT_BIND (address ${i + 1})`) as string,
          )
        : null,
      port,
      rtcTcpPort,
      udpPortStart,
      udpPortEnd,
    },
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    pgliteMaintenanceMs: int(env, 'PGLITE_MAINTENANCE_MS', 5 * 60 * 1000, 0, 24 * 60 * 60 * 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    redisPrefix: prefix(env, 'REDIS_PREFIX', 'kadr'),
    publicUrl: url(env, 'PUBLIC_URL', ['http', 'https']) ?? `http://localhost:${port}`,
    logLevel,
    logFormat: oneOf(env, 'LOG_FORMAT', ['pretty', 'json'], 'pretty'),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    webSourceMaps: bool(env, 'WEB_SOURCE_MAPS', false),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    avatarMaxBytes: int(env, 'AVATAR_MAX_BYTES', 5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
    messageAttachmentMaxBytes: int(
      env,
      'MESSAGE_ATTACHMENT_MAX_BYTES',
      50 * 1024 * 1024,
      1024,
      2 * 1024 * 1024 * 1024,
    ),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    rateLimit: {
      authPerIp: int(env, 'AUTH_RATE_LIMIT_PER_IP', 30, 1, 1_000_000),
      authPerUsername: int(env, 'AUTH_RATE_LIMIT_PER_USERNAME', 10, 1, 1_000_000),
      windowMs: int(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 15 * 60 * 1000, 1000, 24 * 60 * 60 * 1000),
    },
    rateLimits: limitOverrides(env),
    tokenCacheTtlMs: int(env, 'TOKEN_CACHE_TTL_MS', 30_000, 0, 10 * 60 * 1000),
    version: rootVersion(),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 300_000, 0, 24 * 3_600_000),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_MS', 15_000, 100, 10 * 60_000),
    metricsToken: env.METRICS_TOKEN ? env.METRICS_TOKEN : null,
    sessionIdleTimeoutMs: int(
      env,
      'SESSION_IDLE_TIMEOUT_MS',
      14 * 24 * 3_600_000,
      1000,
      365 * 24 * 3_600_000,
    ),
    sessionMaxAgeMs: int(env, 'SESSION_MAX_AGE_MS', 90 * 24 * 3_600_000, 1000, 5 * 365 * 24 * 3_600_000),
    profileCacheTtlMs: int(env, 'PROFILE_CACHE_TTL_MS', 10_000, 0, 10 * 60 * 1000),
    push: {
      vapidPublicKey: env.VAPID_PUBLIC_KEY ? env.VAPID_PUBLIC_KEY : null,
      vapidPrivateKey: env.VAPID_PRIVATE_KEY ? env.VAPID_PRIVATE_KEY : null,
      vapidSubject: env.VAPID_SUBJECT ? env.VAPID_SUBJECT : 'mailto:admin@kadr.local',
      allowInsecureEndpoints: insecurePushEndpoints(env),
    },
    feedCacheTtlMs: int(env, 'FEED_CACHE_TTL_MS', 30_000, 0, 10 * 60 * 1000),
    messageSendQueueMaxWaitMs: int(env, 'MESSAGE_SEND_QUEUE_MAX_WAIT_MS', 500, 0, 60_000),
    livekit: livekitConfig(env),
    livestreams: {
      hostTimeoutMs: int(env, 'LIVESTREAM_HOST_TIMEOUT_MS', 60_000, 100, 24 * 60 * 60 * 1000),
      hostJoinTimeoutMs: int(env, 'LIVESTREAM_HOST_JOIN_TIMEOUT_MS', 30_000, 100, 24 * 60 * 60 * 1000),
    },
    media: {
      maxVideoBytes: int(env, 'MEDIA_MAX_VIDEO_BYTES', 200 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
      maxImageBytes: int(env, 'MEDIA_MAX_IMAGE_BYTES', 20 * 1024 * 1024, 1024, 200 * 1024 * 1024),
      maxCarouselImages: int(env, 'MEDIA_MAX_CAROUSEL_IMAGES', 10, 1, 50),
    },
    calls: {
      ringTimeoutMs: int(env, 'CALL_RING_TIMEOUT_MS', 45_000, 50, 10 * 60 * 1000),
      reconnectGraceMs: int(env, 'CALL_RECONNECT_GRACE_MS', 20_000, 50, 10 * 60 * 1000),
      connectTimeoutMs: int(env, 'CALL_CONNECT_TIMEOUT_MS', 30_000, 50, 10 * 60 * 1000),
      sweepMs: int(env, 'CALL_SWEEP_MS', 2000, 20, 60_000),
    },
    jobs: {
      worker: bool(env, 'JOBS_WORKER', true),
      // Video encoding already uses several threads per job: one heavy job per two cores.
      concurrency: int(
        env,
        'JOBS_CONCURRENCY',
        Math.max(1, Math.floor(os.availableParallelism() / 2)),
        1,
        32,
      ),
      lightConcurrency: int(env, 'JOBS_LIGHT_CONCURRENCY', Math.max(2, os.availableParallelism()), 1, 64),
      timeoutMs: int(env, 'JOBS_TIMEOUT_MS', 15 * 60 * 1000, 100, 6 * 60 * 60 * 1000),
      mediaScheduling: oneOf(env, 'MEDIA_SCHEDULING', MEDIA_SCHEDULINGS, 'idle'),
      retentionMs: int(env, 'JOBS_RETENTION_MS', 7 * 24 * 60 * 60 * 1000, 1000, 365 * 24 * 60 * 60 * 1000),
      uploadsInFlightPerUser: int(env, 'UPLOADS_IN_FLIGHT_PER_USER', 3, 1, 100),
      pollMs: int(env, 'JOBS_POLL_MS', 1000, 10, 60_000),
      leaseMs: int(env, 'JOBS_LEASE_MS', 60_000, 500, 60 * 60 * 1000),
      backoffMs: int(env, 'JOBS_BACKOFF_MS', 5000, 10, 60 * 60 * 1000),
      maxBackoffMs: int(env, 'JOBS_MAX_BACKOFF_MS', 10 * 60 * 1000, 10, 24 * 60 * 60 * 1000),
    },
    s3: s3Config(env),
    aiTagger: aiTagger(env),
    demoContent: bool(env, 'DEMO_CONTENT', env.NODE_ENV !== 'production'),
    moderatorUsernames: (env.MODERATOR_USERNAMES ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
    https: bool(env, 'HTTPS', false),
  };
}
