import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { ClientToServerEvents, ServerToClientEvents, SocketAuth } from '@kadr/contract';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import type { Db } from '../src/db/database.ts';
import { createTestApp, type TestApp, testDatabase } from './helpers.ts';

/** Socket.IO and Redis helpers shared by the realtime, messenger and scale-out suites. */

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether Redis answers; suites that need two nodes run only then (CI always has Redis up). */
export async function redisReachable(suite: string): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    console.warn(`${suite} needs Redis at ${REDIS_URL}; it runs in CI where Redis is up`);
    // Collected by test/global-setup.ts and said loudly at the end of the run.
    if (process.env.KADR_SKIP_REPORT)
      fs.appendFileSync(process.env.KADR_SKIP_REPORT, `${suite} (Redis at ${REDIS_URL})\n`);
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * A websocket-only client with the bearer token; `registry` collects it so the suite can close it. `auth`: more of
 * the handshake, as the web app sends it (its page's id).
 */
export function connectSocket(
  base: string,
  token: string | undefined,
  registry: ClientSocket[],
  auth: Omit<Partial<SocketAuth>, 'token'> = {},
): ClientSocket {
  const s: ClientSocket = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: token ? { token, ...auth } : { ...auth },
    reconnection: false,
    forceNew: true,
  });
  registry.push(s);
  return s;
}

export function connected(s: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', (err) => reject(err));
  });
}

/** Connects and waits until the handshake is accepted. */
export async function openSocket(
  base: string,
  token: string,
  registry: ClientSocket[],
  auth: Omit<Partial<SocketAuth>, 'token'> = {},
): Promise<ClientSocket> {
  const s = connectSocket(base, token, registry, auth);
  await connected(s);
  return s;
}

/** The next `event` on the socket that matches, or a rejection after `timeoutMs`. */
export function nextEvent<T>(
  s: ClientSocket,
  event: keyof ServerToClientEvents,
  match: (e: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      s.off(event, handler as never);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const handler = (e: T) => {
      if (!match(e)) return;
      clearTimeout(timer);
      s.off(event, handler as never);
      resolve(e);
    };
    s.on(event, handler as never);
  });
}

/** Waits until `to` is in the group's socket room: a typing probe from another member reaches it. */
export async function inGroupRoom(from: ClientSocket, to: ClientSocket, groupId: number): Promise<void> {
  for (let i = 0; i < 50; i += 1) {
    const got = nextEvent(to, 'typing', (e: { group_id?: number }) => e.group_id === groupId, 100).then(
      () => true,
      () => false,
    );
    from.emit('typing', { group_id: groupId, is_typing: true });
    if (await got) return;
  }
  throw new Error('never joined the group room');
}

export interface TwoNodes {
  /** The database both nodes share. */
  db: Db;
  one: TestApp;
  two: TestApp;
  urlOne: string;
  urlTwo: string;
  /** Sockets opened by the suite, closed by `close()`. */
  sockets: ClientSocket[];
  close(): Promise<void>;
}

/**
 * Two app instances on one database sharing Redis under a fresh key prefix — two server processes
 * behind a balancer. `twoEnv` is added for node two only.
 */
export async function startTwoNodes(
  env: Record<string, string> = {},
  twoEnv: Record<string, string> = {},
): Promise<TwoNodes> {
  const shared = await testDatabase();
  const common = {
    REDIS_URL,
    REDIS_PREFIX: `kadr_test_${randomBytes(4).toString('hex')}`,
    AUTH_RATE_LIMIT_PER_IP: '1000',
    ...env,
  };
  const one = await createTestApp(common, { db: shared.db });
  const two = await createTestApp({ ...common, ...twoEnv }, { db: shared.db });
  const sockets: ClientSocket[] = [];
  return {
    db: shared.db,
    one,
    two,
    urlOne: await one.app.listen({ port: 0, host: '127.0.0.1' }),
    urlTwo: await two.app.listen({ port: 0, host: '127.0.0.1' }),
    sockets,
    async close() {
      for (const s of sockets) s.disconnect();
      await one.close();
      await two.close();
      await shared.drop();
    },
  };
}
