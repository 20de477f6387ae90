import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures.ts';
import { ApiError, createApiClient } from './client.ts';

const fetchMock = vi.fn<typeof fetch>();

describe('api client', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('prefixes /api/v1, sends the bearer token and JSON bodies', async () => {
    const client = createApiClient();
    client.configure({ getToken: () => 'tok', onUnauthorized: vi.fn() });
    fetchMock.mockResolvedValue(jsonResponse({ ok: true }));
    await client.call(profileEndpoints.update, { body: { name: 'Анна' } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/profile');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"name":"Анна"}');
  });

  it('turns error bodies into ApiError with the Russian text, code and fields', async () => {
    const client = createApiClient();
    fetchMock.mockResolvedValue(
      jsonResponse(
        {
          error: 'Это имя пользователя уже занято',
          code: 'username_taken',
          fields: { username: 'Это имя пользователя уже занято' },
        },
        409,
      ),
    );
    const error = await client
      .call(authEndpoints.register, { body: { username: 'anna', name: 'Анна', password: 'password1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'username_taken',
      message: 'Это имя пользователя уже занято',
      fields: { username: 'Это имя пользователя уже занято' },
    });
  });

  it('calls onUnauthorized for a 401 on a call that carried a token', async () => {
    const onUnauthorized = vi.fn();
    const client = createApiClient();
    client.configure({ getToken: () => 'revoked', onUnauthorized });
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Нет активной сессии', code: 'unauthorized' }, 401));
    await expect(client.call(authEndpoints.me)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not sign out on a 401 for a tokenless call (wrong password)', async () => {
    const onUnauthorized = vi.fn();
    const client = createApiClient();
    client.configure({ getToken: () => null, onUnauthorized });
    fetchMock.mockResolvedValue(
      jsonResponse({ error: 'Неверное имя пользователя или пароль', code: 'invalid_credentials' }, 401),
    );
    await expect(
      client.call(authEndpoints.login, { body: { username: 'anna', password: 'wrong' } }),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reports a network failure as a Russian ApiError', async () => {
    const client = createApiClient();
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(client.call(healthEndpoints.get)).rejects.toMatchObject({
      status: 0,
      message: 'Нет соединения с сервером. Проверьте подключение.',
    });
  });
});
