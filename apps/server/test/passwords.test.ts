import { apiUrl, authRoutes, FieldText, settingsRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, countRows, createTestApp, registerUser, type TestApp, uniqueUsername } from './helpers.ts';

/** Weak passwords are refused with a Russian reason, at registration and at a password change. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
}, 60_000);
afterAll(() => t?.close());

describe('password rules', () => {
  it('registration refuses one repeated character, whitespace only, the username and a password containing it', async () => {
    const before = await countRows(t.db, 'users');
    const username = uniqueUsername('pw');
    for (const [password, text] of [
      ['aaaaaaaa', FieldText.passwordRepeated],
      ['жжжжжжжжжжжж', FieldText.passwordRepeated],
      ['        ', FieldText.passwordBlank],
      ['\t \u00A0\u3000    ', FieldText.passwordBlank],
      [username, FieldText.passwordHasUsername],
      [`${username.toUpperCase()}!`, FieldText.passwordHasUsername],
      [`моё-${username}-2024`, FieldText.passwordHasUsername],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiUrl(authRoutes.register),
        payload: { username, name: 'Слабый', password },
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { password: text } });
    }
    expect(await countRows(t.db, 'users')).toBe(before);
    const fine = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.register),
      payload: { username, name: 'Сильный', password: 'лодка плывёт к маяку' },
    });
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it('a new password must follow the same rules; the old one keeps working when refused', async () => {
    const u = await registerUser(t.app);
    for (const [next, text] of [
      [u.user.username, FieldText.passwordHasUsername],
      ['11111111', FieldText.passwordRepeated],
      ['          ', FieldText.passwordBlank],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: apiUrl(settingsRoutes.changePassword),
        headers: bearer(u.access_token),
        payload: { current_password: 'correct horse', new_password: next },
      });
      expect(res.statusCode, next).toBe(400);
      expect(res.json()).toMatchObject({ error: text, fields: { new_password: text } });
    }
    const login = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: u.user.username, password: 'correct horse' },
    });
    expect(login.statusCode).toBe(200);
  });
});
