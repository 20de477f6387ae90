import type { AuthSession, LoginChallengeBody } from '@kadr/contract';
import { apiUrl, authRoutes, ErrorText } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../src/modules/auth/challenge.ts';
import { createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';

/**
 * Guessing one account from many addresses: attempts in flight count, past a few failures every guess
 * costs a proof-of-work challenge, and the owner's device signs in at once all the same.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
}, 60_000);
afterAll(() => t?.close());

const login = (body: object, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: apiUrl(authRoutes.login), payload: body, remoteAddress });

/** 40 guesses at once, each from its own address. */
const attack = (username: string, round: number) =>
  Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      login({ username, password: `guess ${round}-${i}` }, `203.0.${round}.${i + 1}`),
    ),
  );

describe('parallel guessing', () => {
  it('counts guesses in flight: of 40 at once from 40 addresses, at most 5 reach the password check', async () => {
    const username = uniqueUsername('burst');
    await registerUser(t.app, username, 'Владелец', 'right password 1');
    const answers = await attack(username, 1);
    const checked = answers.filter((r) => r.statusCode === 401).length;
    const challenged = answers.filter((r) => r.statusCode === 403);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(challenged.length).toBe(40 - checked);
    const body = challenged[0]?.json() as Required<LoginChallengeBody>;
    expect(body).toMatchObject({ code: 'login_challenge_required', error: ErrorText.loginChallengeRequired });
    expect(body.challenge.difficulty).toBeGreaterThanOrEqual(16);
    // The second wave: every guess is challenged, none reaches the password check.
    const again = await attack(username, 2);
    expect(again.every((r) => r.statusCode === 403)).toBe(true);
  }, 60_000);

  it('the owner’s device skips the challenge: the correct login right after an attack answers at once', async () => {
    const username = uniqueUsername('owner');
    const owner = await registerUser(t.app, username, 'Владелец', 'right password 2');
    expect(owner.device_token).toBeTruthy();
    await attack(username, 3);
    await attack(username, 4);
    const started = performance.now();
    const res = await login(
      { username, password: 'right password 2', device_token: owner.device_token },
      '198.51.100.7',
    );
    const elapsed = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    // No penalty, no challenge: one password check. The old per-username delay alone was 5 s; the bound leaves a
    // loaded CI machine room for the password hash (one took up to ~1 s there) and still fails on that delay.
    expect(elapsed).toBeLessThan(4000);
    // The same device keeps its token.
    expect((res.json() as AuthSession).device_token).toBe(owner.device_token);
  }, 60_000);

  it('another account’s device token does not help; a new device solves a challenge, once', async () => {
    const username = uniqueUsername('newdev');
    await registerUser(t.app, username, 'Владелец', 'right password 3');
    const stranger = await registerUser(t.app);
    await attack(username, 5);
    const withOther = await login(
      { username, password: 'right password 3', device_token: stranger.device_token },
      '198.51.100.8',
    );
    expect(withOther.statusCode).toBe(403);
    const { challenge } = withOther.json() as Required<LoginChallengeBody>;
    const solution = { token: challenge.token, nonce: solve(challenge) };
    // A solution for this username is no good for another one.
    const elsewhere = await login(
      { username: stranger.user.username, password: 'x'.repeat(9), challenge: solution },
      '198.51.100.9',
    );
    expect(elsewhere.statusCode).not.toBe(200);
    const ok = await login({ username, password: 'right password 3', challenge: solution }, '198.51.100.8');
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as AuthSession).device_token).toBeTruthy();
    // Used once: the same solution again is asked for a new challenge.
    const replay = await login(
      { username, password: 'right password 3', challenge: solution },
      '198.51.100.8',
    );
    expect(replay.statusCode).toBe(403);
    // A forged token (its signature changed) is not accepted either.
    const forged = { token: `${challenge.token.split('.')[0]}.AAAA`, nonce: '1' };
    expect(
      (await login({ username, password: 'right password 3', challenge: forged }, '198.51.100.8')).statusCode,
    ).toBe(403);
  }, 60_000);
});
