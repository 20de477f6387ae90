// A benchmark target in its own process: the real Kadr app on the requested engine, plus a bare
// Fastify route in the same process as the baseline. Reports its URLs to the parent over IPC.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { hash } from '@node-rs/argon2';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { Server as SocketServer } from 'socket.io';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Db, migrateToLatest, openDatabase } from '../apps/server/src/db/database.ts';
import { hashToken } from '../apps/server/src/modules/auth/tokens.ts';
import { moduleMigrations } from '../apps/server/src/modules/index.ts';
import { createTestApp, registerUser, tempDir, testDatabase } from '../apps/server/test/helpers.ts';
import { type Pause, recordPauses } from './pauses.ts';
import { seedStories } from './stories-seed.ts';

export interface BenchTarget {
  appUrl: string;
  bareUrl: string;
  token: string;
  username: string;
  /** A bare Socket.IO relay (BENCH_SOCKET_ECHO=1): `relay` {to, payload} is emitted as `echo` to room `to`. */
  bareSocketUrl?: string;
}

export type BenchMessage =
  | { type: 'ready'; target: BenchTarget }
  | ({ type: 'memory' } & MemorySample)
  | ({ type: 'sample' } & MemorySample)
  | { type: 'heap-snapshot'; file: string }
  | { type: 'heap-sampling'; file?: string }
  | { type: 'commit-floor'; rate: number; seconds: number; latencies: number[] }
  | { type: 'pauses'; pauses: Pause[] };

/**
 * The server's memory and its main thread's event-loop delay since the last sample. `memory` collects garbage
 * first (a settled figure); `sample` does not: a forced full collection holds the event loop for 100–700 ms,
 * which a soak sampling every few seconds would measure as the server's own stalls (and in its latencies).
 */
export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Bytes of the V8 heap backed by physical memory (the heap's part of the RSS; heapTotal also counts reserved pages never touched). */
  heapPhysical: number;
  /** MB of physical memory per V8 heap space (new_space, old_space, code_space, large_object_space, …). */
  spaces: Record<string, number>;
  external: number;
  sockets: number;
  /** ms: max and p99. */
  loopMaxMs: number;
  loopP99Ms: number;
}

const engine = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'pglite';
const seedTokens = Number(process.env.BENCH_SEED_TOKENS ?? 0);

async function diskPglite(dir: string): Promise<{ db: Db; drop(): Promise<void> }> {
  const db = await openDatabase({ databaseUrl: null, pgliteDir: dir });
  await migrateToLatest(db, moduleMigrations());
  return { db, drop: () => db.close() };
}

/**
 * The messenger bench's floor: one durable commit per message, nothing else — a bare
 * `INSERT … ` in its own transaction on the app's engine and connection pool, at the bench's rate, from
 * this process (as the server's own writes are). Each commit's latency in ms, after `leadIn` seconds of the same
 * commits that are not counted (as the app's windows are led in: bench/messenger.bench.ts).
 */
async function commitFloor(db: Db, rate: number, seconds: number, leadIn: number): Promise<number[]> {
  await sql`create table if not exists bench_commit_floor (id bigserial primary key, body text not null, at timestamptz not null default now())`.execute(
    db.kysely,
  );
  const latencies: number[] = [];
  const leading = Math.round(rate * leadIn);
  const total = leading + Math.round(rate * seconds);
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate)) - sent;
      for (let k = 0; k < due; k += 1) {
        const at = performance.now();
        sent += 1;
        const counted = sent > leading;
        pending.push(
          sql`insert into bench_commit_floor (body) values (${`bench ${sent}`})`
            .execute(db.kysely)
            .then(() => {
              if (counted) latencies.push(performance.now() - at);
            }),
        );
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  await Promise.all(pending);
  await sql`truncate bench_commit_floor`.execute(db.kysely);
  return latencies;
}

async function main() {
  if (engine === 'postgres' && !process.env.DATABASE_URL)
    process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (engine === 'pglite') delete process.env.DATABASE_URL;
  const dataDir = tempDir('kadr-bench-');
  // BENCH_PGLITE_DISK=1: PGlite keeps its files on disk in the data directory, as `npm start` does, instead of
  // the suite's in-memory copy, whose files live in the server's memory and grow with every write (a soak of
  // the embedded default measures the former).
  const database =
    engine === 'pglite' && process.env.BENCH_PGLITE_DISK === '1'
      ? await diskPglite(path.join(dataDir, 'pg'))
      : await testDatabase();
  const t = await createTestApp(
    {
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      DATA_DIR: dataDir,
      // BENCH_LOG_LEVEL (bench/lib.ts) shows the server's log.
      ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}),
      // The storage bench runs the app on a bucket (bench/storage.bench.ts).
      ...Object.fromEntries(
        Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('S3_') && !!e[1]),
      ),
      // The storage bench uploads more posts than the hourly per-user default allows.
      ...(process.env.RATE_LIMITS ? { RATE_LIMITS: process.env.RATE_LIMITS } : {}),
      ...(process.env.MEDIA_MAX_VIDEO_BYTES
        ? { MEDIA_MAX_VIDEO_BYTES: process.env.MEDIA_MAX_VIDEO_BYTES }
        : {}),
      // The live chat bench has no host in the media room, so it lengthens the host timeout.
      ...(process.env.LIVESTREAM_HOST_TIMEOUT_MS
        ? { LIVESTREAM_HOST_TIMEOUT_MS: process.env.LIVESTREAM_HOST_TIMEOUT_MS }
        : {}),
    },
    { db: database.db },
  );
  void buildApp;
  void loadConfig;
  const viewer = await registerUser(t.app, 'bench_viewer', 'Зритель');
  const author = await registerUser(t.app, 'bench_author', 'Автор');
  await t.app.inject({
    method: 'POST',
    url: `/api/v1/profile/${author.user.username}/follow`,
    headers: { authorization: `Bearer ${viewer.access_token}` },
  });
  const appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const storyAuthors = Number(process.env.BENCH_STORY_AUTHORS ?? 0);
  if (storyAuthors > 0) await seedStories(database.db.kysely, viewer.user.id, storyAuthors);

  if (seedTokens > 0) {
    // Idle-socket bench: many users with one session each, inserted directly (argon2 per user would take minutes).
    const passwordHash = await hash('bench-password');
    for (let start = 0; start < seedTokens; start += 1000) {
      const count = Math.min(1000, seedTokens - start);
      const users = await database.db.kysely
        .insertInto('users')
        .values(
          Array.from({ length: count }, (_, i) => ({
            username: `idle_${start + i}`,
            name: `Idle ${start + i}`,
            password_hash: passwordHash,
            avatar_url: null,
            avatar_thumbnail_url: null,
            last_seen: null,
          })),
        )
        .returning('id')
        .execute();
      await database.db.kysely
        .insertInto('sessions')
        .values(
          users.map((u, i) => ({
            user_id: u.id,
            token_hash: hashToken(`idle-token-${start + i}`),
            user_agent: 'bench',
            revoked_at: null,
          })),
        )
        .execute();
    }
    await sql`analyze`.execute(database.db.kysely);
  }

  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ id: 1, username: 'bare', name: 'Bare', followers_count: 0 }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  let bareSocketUrl: string | undefined;
  if (process.env.BENCH_SOCKET_ECHO === '1') {
    // Baseline for the messenger bench: the same fan-out through Socket.IO, without HTTP, auth or database.
    const echo = Fastify({ logger: false });
    const io = new SocketServer(echo.server, { transports: ['websocket'], perMessageDeflate: false });
    io.on('connection', (socket) => {
      socket.join(String(socket.handshake.auth.room));
      socket.on('relay', (msg: { to: string; payload: unknown }) => io.to(msg.to).emit('echo', msg.payload));
    });
    bareSocketUrl = await echo.listen({ port: 0, host: '127.0.0.1' });
  }

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const pauses = process.env.BENCH_RECORD_PAUSES === '1' ? recordPauses('server') : [];
  process.on('message', (msg: { type: string; rate?: number; seconds?: number }) => {
    if (msg.type === 'memory' || msg.type === 'sample') {
      if (msg.type === 'memory') globalThis.gc?.();
      const m = process.memoryUsage();
      process.send?.({
        type: msg.type,
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        heapPhysical: v8.getHeapStatistics().total_physical_size,
        spaces: Object.fromEntries(
          v8.getHeapSpaceStatistics().map((x) => [x.space_name, Math.round(x.physical_space_size / 2 ** 20)]),
        ),
        external: m.external,
        sockets: t.app.ctx.gateway.io.engine.clientsCount,
        loopMaxMs: loop.max / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
      } satisfies BenchMessage);
      loop.reset();
    }
    if (msg.type === 'commit-floor') {
      const { rate, seconds, leadIn } = msg as unknown as { rate: number; seconds: number; leadIn?: number };
      void commitFloor(database.db, rate, seconds, leadIn ?? 0).then((latencies) =>
        process.send?.({ type: 'commit-floor', rate, seconds, latencies } satisfies BenchMessage),
      );
    }
    if (msg.type === 'heap-snapshot') {
      // BENCH_HEAP_SNAPSHOTS=<dir>: a V8 heap snapshot after a full collection, what the heap retains.
      globalThis.gc?.();
      if (process.env.BENCH_HEAP_SNAPSHOTS)
        fs.mkdirSync(process.env.BENCH_HEAP_SNAPSHOTS, { recursive: true });
      const file = v8.writeHeapSnapshot(
        path.join(process.env.BENCH_HEAP_SNAPSHOTS ?? dataDir, `server-${Date.now()}.heapsnapshot`),
      );
      process.send?.({ type: 'heap-snapshot', file } satisfies BenchMessage);
    }
    if (msg.type === 'pauses')
      process.send?.({ type: 'pauses', pauses: pauses.splice(0) } satisfies BenchMessage);
    if (msg.type === 'heap-sampling') void heapSampling(msg as { action?: string; label?: string });
    if (msg.type === 'stop') {
      void (async () => {
        await bare.close();
        await t.close();
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      })();
    }
  });
  process.send?.({
    type: 'ready',
    target: { appUrl, bareUrl, bareSocketUrl, token: viewer.access_token, username: author.user.username },
  } satisfies BenchMessage);
}

let sampler: Session | null = null;

/**
 * BENCH_SERVER_HEAP_SAMPLE=<dir>: V8's sampling heap profiler between `start` and `stop`, counting objects that
 * outlived a scavenge whether or not a mark-compact collected them later: who fills the old generation (what the
 * mark-compacts of a busy phase mark and sweep). The profile (.heapprofile, Chrome's format) goes into <dir>.
 * With BENCH_SERVER_HEAP_SAMPLE_ALL=1 it counts every allocation instead, scavenged or not: who fills the young
 * generation (how often it is scavenged, and so how much outlives two scavenges).
 */
async function heapSampling({ action, label }: { action?: string; label?: string }) {
  if (action === 'start') {
    sampler = new Session();
    sampler.connect();
    await sampler.post('HeapProfiler.enable');
    await sampler.post('HeapProfiler.startSampling', {
      samplingInterval: 8192,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: Boolean(process.env.BENCH_SERVER_HEAP_SAMPLE_ALL),
    });
    process.send?.({ type: 'heap-sampling' } satisfies BenchMessage);
    return;
  }
  if (!sampler) return;
  const { profile } = await sampler.post('HeapProfiler.stopSampling');
  sampler.disconnect();
  sampler = null;
  const dir = process.env.BENCH_SERVER_HEAP_SAMPLE as string;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${label ?? 'server'}-${Date.now()}.heapprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  process.send?.({ type: 'heap-sampling', file } satisfies BenchMessage);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
