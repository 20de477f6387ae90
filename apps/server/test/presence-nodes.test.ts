import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisPresence } from '../src/realtime/presence.ts';
import { REDIS_URL, redisReachable } from './sockets.ts';

const hasRedis = await redisReachable('presence-nodes suite');

/**
 * Presence across nodes when a node dies without running its disconnect handlers (SIGKILL): its sockets are
 * removed by a live node once its heartbeat lapses. The kill test (cluster-kill.test.ts) checks the same
 * through real processes; this pins the store's rules with a short node TTL.
 */
describe.runIf(hasRedis)('presence of a dead node', () => {
  const redis = new Redis(REDIS_URL);
  const prefix = `kt${randomBytes(4).toString('hex')}:presence:`;
  const TTL = 300;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('takes a killed node’s users offline, keeps those who reconnected elsewhere online', async () => {
    const killed = redisPresence(redis, prefix, TTL);
    const live = redisPresence(redis, prefix, TTL);
    await killed.heartbeat();
    await live.heartbeat();
    expect(await killed.connect(1, 'a1')).toBe(true);
    expect(await killed.connect(2, 'b1')).toBe(true);
    // User 2 reconnects to the live node before the sweep.
    expect(await live.connect(2, 'b2')).toBe(false);
    // While the killed node's beat has not lapsed, nothing changes.
    expect(await live.heartbeat()).toEqual({ online: [], offline: [] });
    expect(await live.onlineAmong([1, 2])).toEqual([1, 2]);

    await wait(TTL * 2); // `killed` beats no more
    await live.heartbeat();
    expect(await live.onlineAmong([1, 2])).toEqual([2]);
    // The stale socket is gone: user 2 leaving the live node takes them offline.
    expect(await live.disconnect(2, 'b2')).toBe(true);
    expect(await live.onlineAmong([1, 2])).toEqual([]);
  });

  it('sweeps a dead node once, however many live nodes notice', async () => {
    const killed = redisPresence(redis, prefix, TTL);
    const [x, y] = [redisPresence(redis, prefix, TTL), redisPresence(redis, prefix, TTL)];
    await killed.heartbeat();
    await killed.connect(10, 's10');
    await wait(TTL * 2);
    const [fromX, fromY] = await Promise.all([x.heartbeat(), y.heartbeat()]);
    expect([...fromX.offline, ...fromY.offline]).toEqual([10]);
  });

  it('puts back the sockets of a node that was only stalled and taken for dead', async () => {
    const stalled = redisPresence(redis, prefix, TTL);
    const live = redisPresence(redis, prefix, TTL);
    await stalled.heartbeat();
    await stalled.connect(20, 's20');
    await wait(TTL * 2);
    expect((await live.heartbeat()).offline).toEqual([20]);
    expect(await live.onlineAmong([20])).toEqual([]);
    // The stalled node beats again: its socket is still connected, so the user is online again.
    expect(await stalled.heartbeat()).toEqual({ online: [20], offline: [] });
    expect(await live.onlineAmong([20])).toEqual([20]);
    expect(await stalled.disconnect(20, 's20')).toBe(true);
  });

  it('a node that leaves gracefully is not swept', async () => {
    const leaving = redisPresence(redis, prefix, TTL);
    const live = redisPresence(redis, prefix, TTL);
    await leaving.heartbeat();
    await leaving.connect(30, 's30');
    await leaving.disconnect(30, 's30');
    await leaving.leave();
    await wait(TTL * 2);
    expect(await live.heartbeat()).toEqual({ online: [], offline: [] });
  });
});
