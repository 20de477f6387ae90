import { apiUrl, authRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, uniqueUsername } from './helpers.ts';
import { openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

/** Guessing and session expiry with two nodes sharing Redis and the database. */

const hasRedis = await redisReachable('hardening scale-out suite');

describe.runIf(hasRedis)('hardening on two nodes', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes({ SESSION_IDLE_TIMEOUT_MS: '4000', TOKEN_CACHE_TTL_MS: '0' });
  }, 120_000);
  afterAll(() => nodes?.close());

  it('a burst of 40 guesses split over both nodes: at most 5 reach the password check', async () => {
    const username = uniqueUsername('split');
    await registerUser(nodes.one.app, username, 'Владелец', 'right password 9');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? nodes.one : nodes.two).app.inject({
          method: 'POST',
          url: apiUrl(authRoutes.login),
          payload: { username, password: `guess ${i}` },
          remoteAddress: `198.18.0.${i + 1}`,
        }),
      ),
    );
    const checked = answers.filter((r) => r.statusCode === 401).length;
    // Attempts that start together may all see each other in flight: none, or a few, reach the check.
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 401 && s !== 403)).toEqual([]);
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.statusCode === 403)).toHaveLength(40 - checked);
  }, 60_000);

  it('an idle-expired session loses its socket on the other node', async () => {
    const u = await registerUser(nodes.one.app);
    const s = await openSocket(nodes.urlTwo, u.access_token, nodes.sockets);
    const gone = new Promise<string>((resolve) => s.once('disconnect', resolve));
    await sql`update sessions set last_used_at = now() - interval '1 hour' where user_id = ${u.user.id}`.execute(
      nodes.db.kysely,
    );
    expect(await gone).toBe('io server disconnect');
  }, 30_000);
});
