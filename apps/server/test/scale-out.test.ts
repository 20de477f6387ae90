import { randomBytes } from 'node:crypto';
import type { OnlineEvent } from '@kadr/contract';
import { apiUrl, authRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.ts';
import { openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('scale-out suite');

const ENV = { TOKEN_CACHE_TTL_MS: '60000', AUTH_RATE_LIMIT_PER_USERNAME: '2' };

describe.runIf(hasRedis)('two server processes sharing REDIS_URL', () => {
  let nodes: TwoNodes;
  let one: TestApp;
  let two: TestApp;
  let urlOne: string;
  let urlTwo: string;

  beforeAll(async () => {
    nodes = await startTwoNodes(ENV);
    ({ one, two, urlOne, urlTwo } = nodes);
  });
  afterAll(() => nodes.close());

  const socketOn = (base: string, token: string) => openSocket(base, token, nodes.sockets);

  it('delivers an event emitted on one node to the user socket connected to the other', async () => {
    const b = await registerUser(one.app);
    const socketB = await socketOn(urlTwo, b.access_token);
    const received = new Promise<OnlineEvent>((resolve) => socketB.once('online', resolve));
    one.app.ctx.gateway.emitToUser(b.user.id, 'online', { type: 'online', sender_id: 4242 });
    expect(await received).toEqual({ type: 'online', sender_id: 4242 });
  });

  it('announces presence across nodes and keeps it consistent', async () => {
    const follower = await registerUser(one.app);
    const user = await registerUser(one.app);
    await one.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: user.user.username }),
      headers: bearer(follower.access_token),
    });
    const followerSocket = await socketOn(urlTwo, follower.access_token);
    const heard = new Promise<OnlineEvent>((resolve) =>
      followerSocket.on('online', (e) => e.sender_id === user.user.id && resolve(e)),
    );
    await socketOn(urlOne, user.access_token);
    expect((await heard).type).toBe('online');
    const seenFromTwo = await new Promise<number[]>((resolve) =>
      followerSocket.emit('presence:query', [user.user.id], resolve),
    );
    expect(seenFromTwo).toEqual([user.user.id]);
  });

  it('revokes a token on every node at logout, although both cached it', async () => {
    const a = await registerUser(one.app);
    const me = (app: TestApp) =>
      app.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(a.access_token) });
    expect((await me(one)).statusCode).toBe(200);
    expect((await me(two)).statusCode).toBe(200);
    await one.app.inject({ method: 'POST', url: apiUrl(authRoutes.logout), headers: bearer(a.access_token) });
    // Polled, not slept on: the bus notice arrives within milliseconds; the cache would hold it for 60 s.
    await expect.poll(async () => (await me(two)).statusCode, { timeout: 2000, interval: 20 }).toBe(401);
  });

  it('shows a profile change made on one node at once on the other, although it cached the profile', async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(one.app);
    const read = () =>
      two.app.inject({
        method: 'GET',
        url: apiUrl(profileRoutes.get, { username: b.user.username }),
        headers: bearer(a.access_token),
      });
    expect((await read()).json()).toMatchObject({ followers_count: 0, is_following: false });
    await one.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: b.user.username }),
      headers: bearer(a.access_token),
    });
    await one.app.inject({
      method: 'PATCH',
      url: apiUrl(profileRoutes.update),
      headers: bearer(b.access_token),
      payload: { bio: 'Новое описание' },
    });
    await expect
      .poll(async () => (await read()).json(), { timeout: 2000, interval: 20 })
      .toMatchObject({
        followers_count: 1,
        is_following: true,
        bio: 'Новое описание',
      });
  });

  it('shares rate limits between nodes', async () => {
    // The suite's nodes allow two wrong passwords per username (ENV): the third guess is refused on
    // either node, because both count in Redis. (Two more apps for this test alone made it the slowest
    // in the suite and, on a loaded machine, the one that timed out.)
    const login = (app: TestApp) =>
      app.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.login),
        payload: { username: `shared_limit_${randomBytes(3).toString('hex')}`, password: 'password1' },
      });
    const username = `shared_limit_${randomBytes(3).toString('hex')}`;
    const guess = (app: TestApp) =>
      app.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.login),
        payload: { username, password: 'password1' },
      });
    expect((await guess(one)).statusCode).toBe(401);
    expect((await guess(two)).statusCode).toBe(401);
    expect((await guess(one)).statusCode).toBe(429);
    // Another username is not limited by these guesses.
    expect((await login(two)).statusCode).toBe(401);
  });
});
