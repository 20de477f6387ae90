import type { Profile } from '@kadr/contract';
import { apiUrl, profileRoutes } from '@kadr/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, countRows, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = '----kadr-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('profile', () => {
  it('returns every field, and 404 for an unknown user, 401 without a token', async () => {
    const me = await registerUser(t.app, uniqueUsername('prof'), 'Профиль');
    const res = await get(apiUrl(profileRoutes.get, { username: me.user.username }), me.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: me.user.id,
      username: me.user.username,
      name: 'Профиль',
      avatar_url: null,
      avatar_thumbnail_url: null,
      bio: '',
      followers_count: 0,
      following_count: 0,
      posts_count: 0,
      is_following: false,
      is_private: false,
      is_requested: false,
      can_see_content: true,
      last_seen: null,
    });
    expect(
      (await get(apiUrl(profileRoutes.get, { username: 'nobody_here_at_all' }), me.access_token)).statusCode,
    ).toBe(404);
    expect((await get(apiUrl(profileRoutes.get, { username: me.user.username }))).statusCode).toBe(401);
  });

  it('follows and unfollows idempotently with exact counts', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const follow = () =>
      t.app.inject({
        method: 'POST',
        url: apiUrl(profileRoutes.follow, { username: b.user.username }),
        headers: bearer(a.access_token),
      });
    await Promise.all([follow(), follow(), follow()]);
    const res = await follow();
    expect(res.json()).toEqual({ is_following: true, is_requested: false, followers_count: 1 });
    const seenByA = (
      await get(apiUrl(profileRoutes.get, { username: b.user.username }), a.access_token)
    ).json() as Profile;
    expect(seenByA).toMatchObject({ is_following: true, followers_count: 1 });
    const aProfile = (
      await get(apiUrl(profileRoutes.get, { username: a.user.username }), b.access_token)
    ).json() as Profile;
    expect(aProfile).toMatchObject({ following_count: 1, is_following: false });

    const unfollow = () =>
      t.app.inject({
        method: 'DELETE',
        url: apiUrl(profileRoutes.unfollow, { username: b.user.username }),
        headers: bearer(a.access_token),
      });
    await unfollow();
    expect((await unfollow()).json()).toEqual({
      is_following: false,
      is_requested: false,
      followers_count: 0,
    });
    expect(
      (
        (
          await get(apiUrl(profileRoutes.get, { username: a.user.username }), a.access_token)
        ).json() as Profile
      ).following_count,
    ).toBe(0);
  });

  it('refuses following oneself and unknown users, changing nothing', async () => {
    const a = await registerUser(t.app);
    const before = await countRows(t.db, 'follows');
    const self = await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: a.user.username }),
      headers: bearer(a.access_token),
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().code).toBe('cannot_follow_self');
    const ghost = await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.follow, { username: 'ghost_user_x' }),
      headers: bearer(a.access_token),
    });
    expect(ghost.statusCode).toBe(404);
    expect(await countRows(t.db, 'follows')).toBe(before);
  });

  it('updates name and bio, refusing invalid values with field errors', async () => {
    const a = await registerUser(t.app);
    const ok = await t.app.inject({
      method: 'PATCH',
      url: apiUrl(profileRoutes.update),
      headers: bearer(a.access_token),
      payload: { name: 'Новое Имя', bio: 'Люблю кино' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Новое Имя', bio: 'Люблю кино' });
    // A bio past 300 is refused by the documented schema (maxLength), an empty name by the service.
    for (const [payload, field] of [
      [{ name: '', bio: 'Другое' }, 'name'],
      [{ name: 'Другое Имя', bio: 'x'.repeat(301) }, 'bio'],
    ] as const) {
      const bad = await t.app.inject({
        method: 'PATCH',
        url: apiUrl(profileRoutes.update),
        headers: bearer(a.access_token),
        payload,
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().fields)).toEqual([field]);
    }
    expect(
      (await get(apiUrl(profileRoutes.get, { username: a.user.username }), a.access_token)).json(),
    ).toMatchObject({
      name: 'Новое Имя',
    });
  });
});

describe('search', () => {
  it('prefix-matches usernames and names, at most 20, exact username first', async () => {
    const tag = `srch${process.pid % 1000}`;
    const viewer = await registerUser(t.app);
    for (let i = 0; i < 22; i++) await registerUser(t.app, `${tag}_${i}`, `Искомый ${i}`);
    await registerUser(t.app, `zz${tag}`, `${tag} Имя`);
    const res = await get(apiUrl(profileRoutes.search, undefined, { q: tag }), viewer.access_token);
    expect(res.statusCode).toBe(200);
    const { users } = res.json() as { users: { username: string; name: string }[] };
    expect(users).toHaveLength(20);
    expect(users.every((u) => u.username.startsWith(tag) || u.name.toLowerCase().startsWith(tag))).toBe(true);
    const exact = (
      await get(apiUrl(profileRoutes.search, undefined, { q: `${tag}_13` }), viewer.access_token)
    ).json().users;
    expect(exact[0].username).toBe(`${tag}_13`);
    const byName = (
      await get(apiUrl(profileRoutes.search, undefined, { q: 'искомый 1' }), viewer.access_token)
    ).json().users;
    expect(byName.length).toBeGreaterThan(0);
    expect(
      (await get(apiUrl(profileRoutes.search, undefined, { q: '%' }), viewer.access_token)).json().users,
    ).toEqual([]);
    expect(
      (await get(apiUrl(profileRoutes.search, undefined, { q: '' }), viewer.access_token)).json().users,
    ).toEqual([]);
  });
});

describe('avatar', () => {
  it('stores a webp avatar and thumbnail checked by content and serves them', async () => {
    const a = await registerUser(t.app);
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.avatar),
      ...withAuth(multipart('file', 'me.png', 'image/png', png), a.access_token),
    });
    expect(res.statusCode).toBe(200);
    const profile = res.json() as Profile;
    expect(profile.avatar_url).toMatch(/^\/files\/avatars\/.+\.webp$/);
    const file = await t.app.inject({ method: 'GET', url: profile.avatar_thumbnail_url! });
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 128, height: 128 });
  });

  it('refuses a text file named .png and keeps the old avatar', async () => {
    const a = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.avatar),
      ...withAuth(
        multipart('file', 'evil.png', 'image/png', Buffer.from('not an image at all')),
        a.access_token,
      ),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('unsupported_media_type');
    expect(
      (await get(apiUrl(profileRoutes.get, { username: a.user.username }), a.access_token)).json().avatar_url,
    ).toBeNull();
  });
});

function withAuth(req: { payload: Buffer; headers: Record<string, string> }, token: string) {
  return { payload: req.payload, headers: { ...req.headers, ...bearer(token) } };
}
