import { apiUrl, authRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

/**
 * Sessions end everywhere at once: an idle-expired or too old session loses its sockets like a revoked one,
 * and a socket that is in use keeps its session alive without any HTTP request.
 */

const IDLE_MS = 4000;
let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '1000',
    SESSION_IDLE_TIMEOUT_MS: String(IDLE_MS),
    // Every HTTP request reads the session from the database, so what it answers is the session's state.
    TOKEN_CACHE_TTL_MS: '0',
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t?.close());

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(token) });

/** Resolves with the disconnect reason, or null if the socket is still connected after `ms`. */
const disconnectedWithin = (s: ClientSocket, ms: number) =>
  new Promise<string | null>((resolve) => {
    if (!s.connected) return resolve('already');
    const timer = setTimeout(() => resolve(null), ms);
    s.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

describe('session expiry reaches the sockets', () => {
  it('an idle-expired session’s socket is disconnected by the server, and its token answers 401', async () => {
    const u = await registerUser(t.app);
    const s = await openSocket(url, u.access_token, open);
    await sql`update sessions set last_used_at = now() - interval '1 hour' where user_id = ${u.user.id}`.execute(
      t.db.kysely,
    );
    expect(await disconnectedWithin(s, 15_000)).toBe('io server disconnect');
    expect((await me(u.access_token)).statusCode).toBe(401);
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', u.user.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });

  it('a session past SESSION_MAX_AGE_MS ends, sockets included, however recently it was used', async () => {
    const u = await registerUser(t.app);
    const s = await openSocket(url, u.access_token, open);
    await sql`update sessions set created_at = now() - interval '91 days', last_used_at = now() where user_id = ${u.user.id}`.execute(
      t.db.kysely,
    );
    expect(await disconnectedWithin(s, 15_000)).toBe('io server disconnect');
    expect((await me(u.access_token)).statusCode).toBe(401);
  });

  it('socket activity counts as use: a person chatting over the socket past the idle timeout stays in', async () => {
    const busy = await registerUser(t.app);
    const idle = await registerUser(t.app);
    const busySocket = await openSocket(url, busy.access_token, open);
    const idleSocket = await openSocket(url, idle.access_token, open);
    const idleGone = disconnectedWithin(idleSocket, 3 * IDLE_MS);
    const busyGone = disconnectedWithin(busySocket, 2 * IDLE_MS);
    // Only socket events, no HTTP request, for twice the idle timeout.
    const started = Date.now();
    while (Date.now() - started < 2 * IDLE_MS) {
      await new Promise<number[]>((resolve) => busySocket.emit('presence:query', [idle.user.id], resolve));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await busyGone).toBeNull();
    expect(await idleGone).toBe('io server disconnect');
    expect((await me(busy.access_token)).statusCode).toBe(200);
    expect((await me(idle.access_token)).statusCode).toBe(401);
  }, 30_000);
});
