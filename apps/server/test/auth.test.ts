import type { AuthSession, ErrorBody } from '@kadr/contract';
import { apiUrl, authRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, countRows, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '1000',
    AUTH_RATE_LIMIT_PER_USERNAME: '5',
    BODY_LIMIT_BYTES: '2048',
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as ErrorBody;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

describe('register', () => {
  it('creates the account and returns a working token', async () => {
    const username = uniqueUsername('reg');
    const res = await post(apiUrl(authRoutes.register), {
      username,
      name: '  Анна   Петрова ',
      password: 'lamp-otter-71',
    });
    expect(res.statusCode).toBe(201);
    const session = res.json() as AuthSession;
    expect(session.user).toMatchObject({ username, name: 'Анна Петрова', bio: '', avatar_url: null });
    expect(session.access_token).toMatch(/^kadr_/);
    const me = await t.app.inject({
      method: 'GET',
      url: apiUrl(authRoutes.me),
      headers: bearer(session.access_token),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(session.user.id);
    const stored = await t.db.kysely
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(session.access_token);
  });

  it('refuses a duplicate username case-insensitively with 409 and creates nothing', async () => {
    const username = uniqueUsername('dup');
    await registerUser(t.app, username);
    const before = await countRows(t.db, 'users');
    const res = await post(apiUrl(authRoutes.register), {
      username: username.toUpperCase(),
      name: 'Другой',
      password: 'lamp-otter-71',
    });
    const body = expectError(res, 409, 'username_taken');
    expect(body.fields?.username).toBe('Это имя пользователя уже занято');
    expect(await countRows(t.db, 'users')).toBe(before);
  });

  it('answers field errors for a bad username, empty name and short password', async () => {
    const before = await countRows(t.db, 'users');
    const res = await post(apiUrl(authRoutes.register), { username: 'a!', name: '   ', password: 'short' });
    const body = expectError(res, 400, 'validation_failed');
    expect(Object.keys(body.fields ?? {}).sort()).toEqual(['name', 'password', 'username']);
    expect(await countRows(t.db, 'users')).toBe(before);
  });

  it('answers 400 for a malformed, incomplete or oversized body', async () => {
    const before = await countRows(t.db, 'users');
    const malformed = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.register),
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expectError(malformed, 400, 'validation_failed');
    expectError(await post(apiUrl(authRoutes.register), { username: 'someone' }), 400, 'validation_failed');
    expectError(
      await post(apiUrl(authRoutes.register), { username: 5, name: [], password: {} }),
      400,
      'validation_failed',
    );
    const withNul = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.register),
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"nul_user","name":"a\\u0000b","password":"password1"}',
    });
    expectError(withNul, 400, 'validation_failed');
    const poisoned = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.register),
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"proto_user","name":"x","password":"password1","__proto__":{"admin":true}}',
    });
    expectError(poisoned, 400, 'validation_failed');
    const huge = await post(apiUrl(authRoutes.register), {
      username: 'x'.repeat(10),
      name: 'y'.repeat(4000),
      password: 'lamp-otter-71',
    });
    expectError(huge, 400, 'body_too_large');
    expect(await countRows(t.db, 'users')).toBe(before);
  });
});

describe('login and logout', () => {
  it('logs in with the right password and refuses a wrong one with 401', async () => {
    const username = uniqueUsername('login');
    await registerUser(t.app, username, 'Логин', 'right password');
    const ok = await post(apiUrl(authRoutes.login), { username, password: 'right password' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.username).toBe(username);
    const sessions = await countRows(t.db, 'sessions');
    expectError(
      await post(apiUrl(authRoutes.login), { username, password: 'wrong password' }),
      401,
      'invalid_credentials',
    );
    expectError(
      await post(apiUrl(authRoutes.login), { username: uniqueUsername('ghost'), password: 'whatever1' }),
      401,
      'invalid_credentials',
    );
    expect(await countRows(t.db, 'sessions')).toBe(sessions);
  });

  it('revokes the token on logout; the old token then gets 401', async () => {
    const { access_token } = await registerUser(t.app);
    const other = await post(apiUrl(authRoutes.login), {
      username: (
        await t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(access_token) })
      ).json().user.username,
      password: 'correct horse',
    });
    const otherToken = other.json().access_token as string;
    const out = await post(apiUrl(authRoutes.logout), undefined, bearer(access_token));
    expect(out.statusCode).toBe(204);
    expectError(
      await t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(access_token) }),
      401,
      'unauthorized',
    );
    expectError(await post(apiUrl(authRoutes.logout), undefined, bearer(access_token)), 401, 'unauthorized');
    // Another device's session stays signed in.
    expect(
      (await t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(otherToken) }))
        .statusCode,
    ).toBe(200);
  });

  it('answers 401 without a token or with a made-up one', async () => {
    expectError(await t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me) }), 401, 'unauthorized');
    expectError(
      await t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer('kadr_nope') }),
      401,
      'unauthorized',
    );
    expectError(
      await t.app.inject({
        method: 'GET',
        url: apiUrl(authRoutes.me),
        headers: { authorization: 'Basic abc' },
      }),
      401,
      'unauthorized',
    );
  });

  it('rate-limits login attempts per username with 429 and Retry-After', async () => {
    const username = uniqueUsername('rl');
    await registerUser(t.app, username, 'Лимит', 'right password');
    for (let i = 0; i < 5; i++)
      await post(apiUrl(authRoutes.login), { username, password: 'wrong password' });
    const sessions = await countRows(t.db, 'sessions');
    const limited = await post(apiUrl(authRoutes.login), { username, password: 'right password' });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await countRows(t.db, 'sessions')).toBe(sessions);
  });
});

describe('rate limit per IP', () => {
  it('refuses registrations from one IP past the limit and stores nothing', async () => {
    const strict = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '2', AUTH_RATE_LIMIT_PER_USERNAME: '100' });
    try {
      for (let i = 0; i < 2; i++) await registerUser(strict.app);
      const before = await countRows(strict.db, 'users');
      const res = await strict.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.register),
        payload: { username: uniqueUsername(), name: 'Ещё', password: 'lamp-otter-71' },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('rate_limited');
      expect(await countRows(strict.db, 'users')).toBe(before);
      const other = await strict.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.register),
        remoteAddress: '10.9.9.9',
        payload: { username: uniqueUsername(), name: 'Другой IP', password: 'lamp-otter-71' },
      });
      expect(other.statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
