import type { FollowListResponse } from '@kadr/contract';
import { apiUrl, profileRoutes, settingsRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', RATE_LIMITS: 'profile.follow=1000/1h' });
});
afterAll(() => t.close());

interface U {
  token: string;
  id: number;
  username: string;
}

async function user(name: string): Promise<U> {
  const s = await registerUser(t.app, undefined, name);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

async function follow(who: U, whom: U) {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(profileRoutes.follow, { username: whom.username }),
    headers: bearer(who.token),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function list(
  side: 'followers' | 'following',
  of: U,
  who: U,
  query: { offset?: number; limit?: number } = {},
) {
  const res = await t.app.inject({
    method: 'GET',
    url: apiUrl(profileRoutes[side], { username: of.username }, query),
    headers: bearer(who.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FollowListResponse;
}

describe('follower and following lists', () => {
  it('lists followers newest first with the viewer’s own follow state, and pages without gaps', async () => {
    const star = await user('Звезда');
    const viewer = await user('Зритель');
    const fans = [];
    for (let i = 0; i < 5; i++) fans.push(await user(`Поклонник ${i}`));
    for (const fan of fans) await follow(fan, star);
    await follow(viewer, fans[3] as U);

    const first = await list('followers', star, viewer, { limit: 2 });
    expect(first.has_more).toBe(true);
    expect(first.users.map((u) => u.id)).toEqual([fans[4]?.id, fans[3]?.id]);
    expect(first.users[0]).toMatchObject({
      username: fans[4]?.username,
      name: 'Поклонник 4',
      is_following: false,
    });
    expect(first.users[1]?.is_following).toBe(true);
    const second = await list('followers', star, viewer, { offset: 2, limit: 2 });
    const third = await list('followers', star, viewer, { offset: 4, limit: 2 });
    expect(third.has_more).toBe(false);
    expect([...first.users, ...second.users, ...third.users].map((u) => u.id)).toEqual(
      [...fans].reverse().map((f) => f.id),
    );

    const following = await list('following', fans[0] as U, viewer);
    expect(following).toEqual({
      users: [
        {
          id: star.id,
          username: star.username,
          name: 'Звезда',
          avatar_url: null,
          avatar_thumbnail_url: null,
          is_following: false,
        },
      ],
      has_more: false,
    });
  });

  it('an unfollow takes a person off the list', async () => {
    const a = await user('Анна');
    const b = await user('Борис');
    await follow(a, b);
    expect((await list('following', a, b)).users.map((u) => u.id)).toEqual([b.id]);
    await t.app.inject({
      method: 'DELETE',
      url: apiUrl(profileRoutes.unfollow, { username: b.username }),
      headers: bearer(a.token),
    });
    expect((await list('following', a, b)).users).toEqual([]);
    expect((await list('followers', b, a)).users).toEqual([]);
  });

  it('leaves out people walled off from the viewer by a block, either way', async () => {
    const host = await user('Хозяин');
    const blocker = await user('Блокирующий');
    const blocked = await user('Заблокированный');
    const other = await user('Другой');
    for (const fan of [blocker, blocked, other]) await follow(fan, host);
    const block = await t.app.inject({
      method: 'POST',
      url: apiUrl(settingsRoutes.block, { username: blocked.username }),
      headers: bearer(blocker.token),
    });
    expect(block.statusCode, block.body).toBeLessThan(300);

    const ids = async (who: U) => (await list('followers', host, who)).users.map((u) => u.id);
    expect(await ids(host)).toEqual([other.id, blocked.id, blocker.id]);
    expect(await ids(blocker)).toEqual([other.id, blocker.id]);
    expect(await ids(blocked)).toEqual([other.id, blocked.id]);
  });

  it('answers 404 for an unknown user, 400 for bad paging, 401 without a session', async () => {
    const me = await user('Я');
    const missing = await t.app.inject({
      method: 'GET',
      url: apiUrl(profileRoutes.followers, { username: 'nobody_at_all_here' }),
      headers: bearer(me.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    const bad = await t.app.inject({
      method: 'GET',
      url: `${apiUrl(profileRoutes.following, { username: me.username })}?limit=0`,
      headers: bearer(me.token),
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: apiUrl(profileRoutes.following, { username: me.username }),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
