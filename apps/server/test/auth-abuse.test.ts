import {
  apiUrl,
  authRoutes,
  ErrorText,
  FieldText,
  type LoginChallengeBody,
  profileRoutes,
} from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../src/modules/auth/challenge.ts';
import { bearer, countRows, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    AUTH_RATE_LIMIT_PER_IP: '1000',
    SESSION_IDLE_TIMEOUT_MS: String(60 * 60 * 1000),
  });
}, 240_000);
afterAll(() => t.close());

/** A login as the web app makes it: a proof-of-work challenge, when asked for, is solved and sent again. */
async function login(username: string, password: string, remoteAddress: string) {
  const attempt = (challenge?: { token: string; nonce: string }) =>
    t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username, password, ...(challenge ? { challenge } : {}) },
      remoteAddress,
    });
  const first = await attempt();
  if (first.statusCode !== 403) return first;
  const { challenge } = first.json() as Required<LoginChallengeBody>;
  return attempt({ token: challenge.token, nonce: solve(challenge) });
}

describe('guessing passwords', () => {
  it('an attacker’s ten wrong tries lock out the attacker’s address, never the owner elsewhere', async () => {
    const username = uniqueUsername('owner');
    await registerUser(t.app, username, 'Владелец', 'right password');
    for (let i = 0; i < 10; i += 1)
      expect((await login(username, `guess ${i}`, '203.0.113.7')).statusCode).toBe(401);
    const attacker = await login(username, 'right password', '203.0.113.7');
    expect(attacker.statusCode).toBe(429);
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);

    // Asked for a challenge (a new device), not refused.
    const owner = await login(username, 'right password', '198.51.100.20');
    expect(owner.statusCode).toBe(200);
  });

  it('groups IPv6 addresses by /64: rotating within one prefix does not reset the count', async () => {
    const username = uniqueUsername('v6');
    await registerUser(t.app, username, 'Шесть', 'right password');
    for (let i = 1; i <= 10; i += 1)
      expect((await login(username, 'nope', `2001:db8:aa:bb::${i.toString(16)}`)).statusCode).toBe(401);
    expect((await login(username, 'right password', '2001:db8:aa:bb:1234::1')).statusCode).toBe(429);
    expect((await login(username, 'right password', '2001:db8:aa:cc::1')).statusCode).toBe(200);
  });
});

describe('passwords and names at registration', () => {
  it('refuses short and common passwords, and stores nothing', async () => {
    const before = await countRows(t.db, 'users');
    for (const [password, text] of [
      ['short', FieldText.passwordTooShort],
      ['password1', ErrorText.passwordTooCommon],
      ['Qwerty123', ErrorText.passwordTooCommon],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.register),
        payload: { username: uniqueUsername(), name: 'Слабый', password },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ password: text });
    }
    expect(await countRows(t.db, 'users')).toBe(before);
  });

  it('strips bidi override characters from display names', async () => {
    const session = await registerUser(t.app, uniqueUsername(), 'Ан\u202Eна\u2066 К\u200F');
    expect(session.user.name).toBe('Анна К');
    const res = await t.app.inject({
      method: 'PATCH',
      url: apiUrl(profileRoutes.update),
      headers: bearer(session.access_token),
      payload: { name: '\u202Devil\u202C name' },
    });
    expect(res.json().name).toBe('evil name');
  });
});

describe('session lifetime', () => {
  it('a session idle past SESSION_IDLE_TIMEOUT_MS stops working; a used one keeps working', async () => {
    const idle = await registerUser(t.app);
    const active = await registerUser(t.app);
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: apiUrl(authRoutes.me), headers: bearer(token) });
    // Neither token has been used yet, so no node has it cached.
    await sql`update sessions set last_used_at = now() - interval '2 hours' where user_id = ${idle.user.id}`.execute(
      t.db.kysely,
    );
    expect((await me(idle.access_token)).statusCode).toBe(401);
    expect((await me(active.access_token)).statusCode).toBe(200);
  });
});
