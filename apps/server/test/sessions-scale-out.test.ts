import { apiUrl, authRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import type { ClientSocket } from './sockets.ts';
import { nextEvent, openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('sessions scale-out suite');

const disconnected = (s: ClientSocket) =>
  new Promise<number>((resolve) => {
    const started = Date.now();
    if (!s.connected) resolve(0);
    s.once('disconnect', () => resolve(Date.now() - started));
  });

describe.runIf(hasRedis)('ending a session on two nodes sharing Redis', () => {
  let nodes: TwoNodes;
  let one: TestApp;

  beforeAll(async () => {
    nodes = await startTwoNodes();
    ({ one } = nodes);
  }, 240_000);
  afterAll(() => nodes.close());

  it('logout disconnects that session’s sockets on every node within a second, and no other session’s', async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(one.app);
    const login = await one.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: a.user.username, password: 'correct horse' },
    });
    const otherSession = (login.json() as { access_token: string }).access_token;
    const onOne = await openSocket(nodes.urlOne, a.access_token, nodes.sockets);
    const onTwo = await openSocket(nodes.urlTwo, a.access_token, nodes.sockets);
    const keeps = await openSocket(nodes.urlTwo, otherSession, nodes.sockets);
    const gone = [disconnected(onOne), disconnected(onTwo)];

    const res = await one.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.logout),
      headers: bearer(a.access_token),
    });
    expect(res.statusCode).toBeLessThan(300);
    const within = await Promise.race([
      Promise.all(gone),
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 1000)),
    ]);
    expect(within).not.toBe('late');

    // The other session still hears new messages.
    const heard = nextEvent(keeps, 'new-message');
    await messenger(one.app).sent(b.access_token, a.user.id, 'после выхода');
    await heard;
    expect(keeps.connected).toBe(true);
    expect(onOne.connected || onTwo.connected).toBe(false);
  });
});
