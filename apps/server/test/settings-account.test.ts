import type { ActiveSession, AuthSession } from '@kadr/contract';
import {
  apiUrl,
  authRoutes,
  ErrorCode,
  messengerRoutes,
  profileRoutes,
  settingsRoutes,
} from '@kadr/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

/** Account section: password change ends the other sessions, the sessions list, account deletion. */

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];
const PASSWORD = 'correct horse';

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function login(username: string, password = PASSWORD): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(authRoutes.login),
    payload: { username, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AuthSession).access_token;
}
const me = async (token: string) => (await api('GET', apiUrl(authRoutes.me), token)).statusCode;
const disconnected = (s: ClientSocket) =>
  new Promise<void>((resolve) => {
    if (s.disconnected) resolve();
    else s.once('disconnect', () => resolve());
  });

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t?.close());

describe('password change', () => {
  it('needs the current password; ends every other session (token 401, socket dropped), keeps this one', async () => {
    const a = await registerUser(t.app, uniqueUsername('pw'));
    const other = await login(a.user.username);
    const otherSocket = await openSocket(url, other, open);
    const gone = disconnected(otherSocket);

    const wrong = await api('POST', apiUrl(settingsRoutes.changePassword), a.access_token, {
      current_password: 'not it',
      new_password: 'a much better one',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: ErrorCode.wrongPassword });
    expect(await me(other)).toBe(200);

    const weak = await api('POST', apiUrl(settingsRoutes.changePassword), a.access_token, {
      current_password: PASSWORD,
      new_password: 'short',
    });
    expect(weak.statusCode).toBe(400);

    const ok = await api('POST', apiUrl(settingsRoutes.changePassword), a.access_token, {
      current_password: PASSWORD,
      new_password: 'a much better one',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ended_sessions: 1 });
    expect(await me(other)).toBe(401);
    expect(await me(a.access_token)).toBe(200);
    await gone;
    // The old password no longer logs in; the new one does.
    const old = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: a.user.username, password: PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await login(a.user.username, 'a much better one');
  });
});

describe('active sessions', () => {
  it('lists the live sessions with the current one marked, and ends one of them', async () => {
    const a = await registerUser(t.app, uniqueUsername('ss'));
    const other = await login(a.user.username);
    const list = (await api('GET', apiUrl(settingsRoutes.sessions), a.access_token)).json() as {
      sessions: ActiveSession[];
    };
    expect(list.sessions).toHaveLength(2);
    expect(list.sessions.filter((s) => s.is_current)).toHaveLength(1);
    const target = list.sessions.find((s) => !s.is_current) as ActiveSession;
    // Another user cannot end it.
    const b = await registerUser(t.app);
    expect(
      (await api('DELETE', apiUrl(settingsRoutes.endSession, { id: target.id }), b.access_token)).statusCode,
    ).toBe(404);
    expect(await me(other)).toBe(200);
    expect(
      (await api('DELETE', apiUrl(settingsRoutes.endSession, { id: target.id }), a.access_token)).statusCode,
    ).toBe(200);
    expect(await me(other)).toBe(401);
    const after = (await api('GET', apiUrl(settingsRoutes.sessions), a.access_token)).json() as {
      sessions: ActiveSession[];
    };
    expect(after.sessions.map((s) => s.is_current)).toEqual([true]);
  });
});

describe('account deletion', () => {
  it('after the password: sessions end, the profile is gone, counters of the other side stay right', async () => {
    const a = await registerUser(t.app, uniqueUsername('del'));
    const b = await registerUser(t.app);
    await api('POST', apiUrl(profileRoutes.follow, { username: b.user.username }), a.access_token);
    await api('POST', apiUrl(messengerRoutes.send), a.access_token, {
      other_user_id: b.user.id,
      content: 'пока',
      temp_id: 'del-1',
    });
    expect(
      (await api('POST', apiUrl(settingsRoutes.deleteAccount), a.access_token, { password: 'wrong' }))
        .statusCode,
    ).toBe(403);
    expect(await me(a.access_token)).toBe(200);
    const res = await api('POST', apiUrl(settingsRoutes.deleteAccount), a.access_token, {
      password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await me(a.access_token)).toBe(401);
    expect(
      (await api('GET', apiUrl(profileRoutes.get, { username: a.user.username }), b.access_token)).statusCode,
    ).toBe(404);
    const profile = (
      await api('GET', apiUrl(profileRoutes.get, { username: b.user.username }), b.access_token)
    ).json() as {
      followers_count: number;
    };
    expect(profile.followers_count).toBe(0);
    const chats = (await api('GET', apiUrl(messengerRoutes.chats), b.access_token)).json() as {
      chats: { user_id: number }[];
    };
    expect(chats.chats.some((c) => c.user_id === a.user.id)).toBe(false);
  });
});
