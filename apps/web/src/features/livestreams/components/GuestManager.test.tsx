import type { LiveStream } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, liveStreamOf } from '../../../test/fixtures.ts';
import { livestreamKeys } from '../api/livestream-queries.ts';
import { GuestManager } from './GuestManager.tsx';

const fetchMock = vi.fn<typeof fetch>();

const user = (id: number, name: string) => ({
  id,
  username: `user${id}`,
  name,
  avatar_url: null,
  avatar_thumbnail_url: null,
});

function setup(stream: LiveStream) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(livestreamKeys.stream(stream.id), stream);
  render(
    <QueryClientProvider client={queryClient}>
      <GuestManager stream={stream} />
    </QueryClientProvider>,
  );
  return queryClient;
}

const searches = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/profile/search/users'));

describe('GuestManager', { timeout: 20_000 }, () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the empty state and searches only for a non-empty query, once, after 300 ms', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ users: [] }));
    setup(liveStreamOf());
    expect(screen.getByText('Пока нет гостей')).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: 'Найти пользователя' });
    fireEvent.change(box, { target: { value: '   ' } });
    await new Promise((r) => setTimeout(r, 400));
    expect(searches()).toHaveLength(0);

    fireEvent.change(box, { target: { value: 'б' } });
    fireEvent.change(box, { target: { value: 'бор' } });
    const typedAt = Date.now();
    await waitFor(() => expect(searches()).toHaveLength(1));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(290);
    expect(String(searches()[0]![0])).toContain(`q=${encodeURIComponent('бор')}`);
    expect(await screen.findByText('Пользователи не найдены')).toBeInTheDocument();
  });

  it('adds a guest, and shows the server text for the limit and §8 text for other failures', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.includes('/profile/search/users'))
        return jsonResponse({ users: [user(2, 'Борис'), user(3, 'Вера')] });
      if (url.endsWith('/livestreams/7/guests') && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { user_id: number };
        if (body.user_id === 2)
          return jsonResponse({ error: 'Максимальное количество гостей: 5', code: 'guest_limit' }, 409);
        return jsonResponse({ error: 'Внутренняя ошибка сервера', code: 'internal' }, 500);
      }
      throw new Error(`unexpected ${url}`);
    });
    setup(liveStreamOf());
    fireEvent.change(screen.getByRole('searchbox', { name: 'Найти пользователя' }), {
      target: { value: 'a' },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить: Борис' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Максимальное количество гостей: 5');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить: Вера' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Не удалось добавить гостя'));
  });

  it('removes a guest optimistically and restores it with the §8 text when the server refuses', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: 'Внутренняя ошибка сервера', code: 'internal' }, 500));
    const queryClient = setup(liveStreamOf([4]));
    await userEvent.click(screen.getByRole('button', { name: 'Убрать: Гость 4' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось удалить гостя');
    expect(
      queryClient.getQueryData<LiveStream>(livestreamKeys.stream(7))?.guests.map((g) => g.user_id),
    ).toEqual([4]);
  });
});
