import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures.ts';
import { BOOT_GLOBAL, type BootResponses } from './boot-global.ts';
import { BOOT_ANSWERS_KEPT_MS, dropBootResponses } from './boot-responses.ts';
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

  it('starts a read in a task of its own and a write in the task that asked', async () => {
    const client = createApiClient();
    fetchMock.mockImplementation(async () => jsonResponse({ ok: true }));
    let tasksRun = 0;
    const tick = () => new Promise<void>((resolve) => setTimeout(() => resolve(void tasksRun++), 0));
    const read = client.call(healthEndpoints.get);
    await Promise.resolve();
    await Promise.resolve();
    expect(fetchMock).not.toHaveBeenCalled();
    await tick();
    await read;
    expect(tasksRun).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const write = client.call(profileEndpoints.update, { body: { name: 'Анна' } });
    await Promise.resolve();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await write;
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

  describe("the boot script's answers", () => {
    const boot: BootResponses = new Map();
    beforeEach(() => vi.stubGlobal(BOOT_GLOBAL, boot));
    afterEach(() => boot.clear());

    it('are taken once: a later call of the same URL asks the server', async () => {
      const client = createApiClient();
      boot.set('/api/v1/auth/me', Promise.resolve(jsonResponse({ id: 1 })));
      fetchMock.mockResolvedValue(jsonResponse({ id: 2 }));
      expect(await client.call(authEndpoints.me)).toEqual({ id: 1 });
      expect(fetchMock).not.toHaveBeenCalled();
      expect(await client.call(authEndpoints.me)).toEqual({ id: 2 });
      expect(fetchMock).toHaveBeenCalledOnce();
    });

    it('a call aborted while the answer is on its way leaves it to the next call, not a second request', async () => {
      const client = createApiClient();
      let answer: (r: Response) => void = () => {};
      boot.set('/api/v1/auth/me', new Promise<Response>((resolve) => (answer = resolve)));
      const first = new AbortController();
      const aborted = client.call(authEndpoints.me, { signal: first.signal });
      first.abort();
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
      const second = client.call(authEndpoints.me);
      answer(jsonResponse({ id: 1 }));
      expect(await second).toEqual({ id: 1 });
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('an answer nobody took when the socket connects past the start is dropped: a refetch asks the server', async () => {
      const client = createApiClient();
      boot.set('/api/v1/auth/me', Promise.resolve(jsonResponse({ id: 1, state: 'at the start' })));
      fetchMock.mockResolvedValue(jsonResponse({ id: 1, state: 'now' }));
      // At a cold start's first idle moment they are kept for the screens still loading their code.
      dropBootResponses(BOOT_ANSWERS_KEPT_MS - 1);
      expect(boot.size).toBe(1);
      // Later (a socket back after a reload's backoff) they are the state of the page's start: dropped.
      dropBootResponses(BOOT_ANSWERS_KEPT_MS + 1);
      expect(await client.call(authEndpoints.me)).toEqual({ id: 1, state: 'now' });
      expect(fetchMock).toHaveBeenCalledOnce();
    });

    it('a write forgets the answers nobody took yet: the list read after it is the server’s, not the start’s', async () => {
      const client = createApiClient();
      boot.set('/api/v1/auth/me', Promise.resolve(jsonResponse({ id: 1, state: 'at the start' })));
      fetchMock.mockResolvedValue(jsonResponse({ ok: true }));
      await client.call(authEndpoints.logout);
      expect(boot.size).toBe(0);
      fetchMock.mockResolvedValue(jsonResponse({ id: 1, state: 'now' }));
      expect(await client.call(authEndpoints.me)).toEqual({ id: 1, state: 'now' });
    });

    it('a query whose only observer leaves and comes back during the first load fetches once', async () => {
      const client = createApiClient();
      let answer: (r: Response) => void = () => {};
      boot.set('/api/v1/auth/me', new Promise<Response>((resolve) => (answer = resolve)));
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const options = {
        queryKey: ['me'],
        queryFn: ({ signal }: { signal: AbortSignal }) => client.call(authEndpoints.me, { signal }),
        staleTime: 30_000,
      };
      const leaves = new QueryObserver(queryClient, options).subscribe(() => undefined);
      await vi.waitFor(() => expect(queryClient.isFetching()).toBe(1));
      leaves();
      const comesBack = new QueryObserver(queryClient, options);
      const stop = comesBack.subscribe(() => undefined);
      answer(jsonResponse({ id: 1 }));
      await vi.waitFor(() => expect(comesBack.getCurrentResult().data).toEqual({ id: 1 }));
      expect(fetchMock).not.toHaveBeenCalled();
      stop();
    });
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
