import { apiUrl, authRoutes, moderationRoutes, type QueueResponse } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, uniqueUsername } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import {
  type ClientSocket,
  nextEvent,
  openSocket,
  redisReachable,
  startTwoNodes,
  type TwoNodes,
} from './sockets.ts';

const hasRedis = await redisReachable('moderation scale-out suite');

const disconnected = (s: ClientSocket) =>
  new Promise<void>((resolve) => {
    if (!s.connected) resolve();
    s.once('disconnect', () => resolve());
  });

/**
 * A suspension acted on one node reaches the other through Redis: the person's sockets there drop within
 * a second, their peers there hear `user-suspension-changed`, and signing in there is refused.
 */
describe.runIf(hasRedis)('a suspension on two nodes sharing Redis', () => {
  let nodes: TwoNodes;
  const modName = uniqueUsername('smod');

  beforeAll(async () => {
    nodes = await startTwoNodes({ MODERATOR_USERNAMES: modName });
  }, 240_000);
  afterAll(() => nodes.close(), 180_000);

  it('drops the person’s sockets on the other node within a second and tells their peer there', async () => {
    const { one, two } = nodes;
    const mod = await registerUser(one.app, modName, 'Модератор');
    const troll = await registerUser(one.app, uniqueUsername('st'), 'Тролль');
    const peer = await registerUser(one.app, uniqueUsername('sp'), 'Собеседник');
    await messenger(one.app).sent(troll.access_token, peer.user.id, 'привет');

    const report = await one.app.inject({
      method: 'POST',
      url: apiUrl(moderationRoutes.report),
      headers: bearer(peer.access_token),
      payload: { kind: 'user', target_id: troll.user.id, reason: 'spam' },
    });
    expect(report.statusCode).toBe(200);
    const queue = (
      await one.app.inject({
        method: 'GET',
        url: apiUrl(moderationRoutes.queue),
        headers: bearer(mod.access_token),
      })
    ).json() as QueueResponse;
    const item = queue.items.find((i) => i.kind === 'user' && i.target_id === troll.user.id);
    if (!item) throw new Error('no queue entry');

    const trollOnTwo = await openSocket(nodes.urlTwo, troll.access_token, nodes.sockets);
    const trollOnOne = await openSocket(nodes.urlOne, troll.access_token, nodes.sockets);
    const peerOnTwo = await openSocket(nodes.urlTwo, peer.access_token, nodes.sockets);
    const gone = Promise.all([disconnected(trollOnTwo), disconnected(trollOnOne)]);
    const heard = nextEvent(
      peerOnTwo,
      'user-suspension-changed',
      (e: { user_id: number; suspended: boolean }) => e.user_id === troll.user.id && e.suspended,
    );

    const acted = await one.app.inject({
      method: 'POST',
      url: apiUrl(moderationRoutes.act, { id: item.id }),
      headers: bearer(mod.access_token),
      payload: { action: 'suspend', reason: 'спам' },
    });
    expect(acted.statusCode).toBe(200);
    const within = await Promise.race([
      gone.then(() => 'dropped' as const),
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 1000)),
    ]);
    expect(within).toBe('dropped');
    await heard;
    expect(peerOnTwo.connected).toBe(true);

    const login = await two.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: troll.user.username, password: 'correct horse' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('Ваш аккаунт заблокирован модератором навсегда. Причина: спам');
  });
});
