import net from 'node:net';
import type { SendMessageResult } from '@kadr/contract';
import { apiUrl, authRoutes, healthRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '1000',
    REQUEST_TIMEOUT_MS: '800',
    HEADERS_TIMEOUT_MS: '500',
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 240_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t.close();
});

/** Writes `head` (and nothing more) and resolves with the time until the server closes the connection. */
function closedAfter(head: string, limitMs = 10_000): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${limitMs} ms`));
    }, limitMs);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('slow clients', () => {
  it('closes a connection whose body trickles in past REQUEST_TIMEOUT_MS', async () => {
    const head = `POST ${apiUrl(authRoutes.login)} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"u`;
    expect(await closedAfter(head)).toBeLessThan(5_000);
  });

  it('closes a connection whose headers never finish past HEADERS_TIMEOUT_MS', async () => {
    expect(await closedAfter(`GET ${apiUrl(healthRoutes.get)} HTTP/1.1\r\nHost: x\r\nX-Slow: `)).toBeLessThan(
      5_000,
    );
  });
});

describe('socket input', () => {
  it('answers a NUL in a socket message with a 400 ack, like HTTP, and stores nothing', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const s = await openSocket(url, a.access_token, open);
    const ack = await new Promise<SendMessageResult>((resolve) =>
      s.emit('send-message', { other_user_id: b.user.id, content: 'a\u0000b', temp_id: 'nul-1' }, resolve),
    );
    expect(ack).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
    expect((await messenger(t.app).conversation(a.access_token, b.user.id)).messages).toHaveLength(0);
  });
});

describe('presence:query', () => {
  const query = (s: ClientSocket, ids: number[]) =>
    new Promise<number[]>((resolve) => s.emit('presence:query', ids, resolve));

  it('tells a stranger nothing; a follower and a chat peer hear who is online', async () => {
    const target = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const follower = await registerUser(t.app);
    const peer = await registerUser(t.app);
    await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: target.user.username }),
      headers: bearer(follower.access_token),
    });
    await messenger(t.app).sent(peer.access_token, target.user.id, 'привет');
    await openSocket(url, target.access_token, open);
    const asStranger = await openSocket(url, stranger.access_token, open);
    const asFollower = await openSocket(url, follower.access_token, open);
    const asPeer = await openSocket(url, peer.access_token, open);
    // The target is online (its socket is open); only its audience may learn that.
    expect(await query(asFollower, [target.user.id])).toEqual([target.user.id]);
    expect(await query(asPeer, [target.user.id])).toEqual([target.user.id]);
    expect(await query(asStranger, [target.user.id, follower.user.id, peer.user.id])).toEqual([]);
  });
});
