import v8 from 'node:v8';
import vm from 'node:vm';
import type { OnlineEvent } from '@kadr/contract';
import { apiUrl, authRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, connected, connectSocket, nextEvent } from './sockets.ts';

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t.close());

const socket = (token: string | undefined, base = url) => connectSocket(base, token, open);

describe('socket handshake', () => {
  it('refuses a connection without a token or with a revoked one', async () => {
    await expect(connected(socket(undefined))).rejects.toThrow('unauthorized');
    await expect(connected(socket('kadr_invalid'))).rejects.toThrow('unauthorized');
    const a = await registerUser(t.app);
    await t.app.inject({ method: 'POST', url: apiUrl(authRoutes.logout), headers: bearer(a.access_token) });
    await expect(connected(socket(a.access_token))).rejects.toThrow('unauthorized');
  });

  it('accepts a valid token and joins the user room', async () => {
    const a = await registerUser(t.app);
    const s = socket(a.access_token);
    await connected(s);
    const online = await new Promise<number[]>((resolve) =>
      s.emit('presence:query', [a.user.id, 999_999], resolve),
    );
    expect(online).toEqual([a.user.id]);
  });
});

describe('an idle socket', () => {
  it('keeps nothing of its upgrade request once connected (memory per socket)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const requests: WeakRef<object>[] = [];
    const onEngineConnection = (raw: { request: object }) => requests.push(new WeakRef(raw.request));
    t.app.ctx.gateway.io.engine.on('connection', onEngineConnection);
    try {
      const a = await registerUser(t.app);
      const s = socket(a.access_token);
      await connected(s);
      const server = [...t.app.ctx.gateway.io.of('/').sockets.values()].find((x) => x.id === s.id);
      expect(server?.request).toBeNull();
      expect(server?.handshake.headers).toEqual({});
      // Nor the handshake built from it: no token, no query, no url, one shared record for every socket.
      expect(server?.handshake.auth).toEqual({});
      expect(server?.handshake.query).toEqual({});
      expect(server?.handshake.url).toBe('');
      const b = await registerUser(t.app);
      const other = socket(b.access_token);
      await connected(other);
      const otherServer = [...t.app.ctx.gateway.io.of('/').sockets.values()].find((x) => x.id === other.id);
      expect(otherServer?.handshake).toBe(server?.handshake);
      expect(otherServer?.data).toMatchObject({ userId: b.user.id, sessionId: expect.any(String) });
      // The socket still works after the release: a query answers, and the request can be collected.
      await new Promise((resolve) => s.emit('presence:query', [a.user.id], resolve));
      expect(requests).toHaveLength(2);
      await expect
        .poll(
          async () => {
            gc();
            await new Promise((r) => setTimeout(r, 10));
            return requests[0]?.deref();
          },
          { timeout: 10_000 },
        )
        .toBeUndefined();
    } finally {
      t.app.ctx.gateway.io.engine.off('connection', onEngineConnection);
    }
  });

  it('is dropped when its session ends, other sessions of the user stay', async () => {
    const a = await registerUser(t.app);
    const other = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: a.user.username, password: 'correct horse' },
    });
    const second = (other.json() as { access_token: string }).access_token;
    const ending = socket(a.access_token);
    const staying = socket(second);
    await Promise.all([connected(ending), connected(staying)]);
    const dropped = new Promise((resolve) => ending.once('disconnect', resolve));
    await t.app.inject({ method: 'POST', url: apiUrl(authRoutes.logout), headers: bearer(a.access_token) });
    await dropped;
    const online = await new Promise<number[]>((resolve) =>
      staying.emit('presence:query', [a.user.id], resolve),
    );
    expect(staying.connected).toBe(true);
    expect(online).toEqual([a.user.id]);
  });
});

describe('presence', () => {
  it('tells followers when a user comes online and goes offline, and stores last_seen', async () => {
    const follower = await registerUser(t.app);
    const user = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: user.user.username }),
      headers: bearer(follower.access_token),
    });

    const followerSocket = socket(follower.access_token);
    const strangerSocket = socket(stranger.access_token);
    await Promise.all([connected(followerSocket), connected(strangerSocket)]);
    const strangerHeard: OnlineEvent[] = [];
    strangerSocket.on('online', (e) => strangerHeard.push(e));

    const cameOnline = nextEvent<OnlineEvent>(
      followerSocket,
      'online',
      (e) => e.sender_id === user.user.id && e.type === 'online',
    );
    const userSocket = socket(user.access_token);
    await connected(userSocket);
    await cameOnline;

    // A second device does not announce again; closing one of two keeps the user online.
    const second = socket(user.access_token);
    await connected(second);
    const wentOffline = nextEvent<OnlineEvent>(
      followerSocket,
      'online',
      (e) => e.sender_id === user.user.id && e.type === 'offline',
    );
    second.disconnect();
    userSocket.disconnect();
    const offline = await wentOffline;
    expect(Date.parse(offline.last_seen ?? '')).toBeGreaterThan(Date.now() - 10_000);

    const profile = await t.app.inject({
      method: 'GET',
      url: apiUrl(profileRoutes.get, { username: user.user.username }),
      headers: bearer(follower.access_token),
    });
    expect(profile.json().last_seen).toBe(offline.last_seen);
    expect(strangerHeard.filter((e) => e.sender_id === user.user.id)).toEqual([]);
  });
});
