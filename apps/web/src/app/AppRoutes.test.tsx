import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../features/auth/auth-store.ts';
import { StorageKeys } from '../shared/storage/keys.ts';
import { jsonResponse, me, storeSession } from '../test/fixtures.ts';
import { AppContent } from './App.tsx';
import { connectApiToAuth } from './connect-api.ts';

vi.mock('../shared/realtime/socket.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../shared/realtime/socket.ts')>();
  const fakeSocket = { on: vi.fn(), off: vi.fn(), removeAllListeners: vi.fn(), disconnect: vi.fn() };
  return { ...original, createSocket: vi.fn(async () => fakeSocket) };
});

let currentPath = '';
function LocationProbe() {
  currentPath = useLocation().pathname;
  return null;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  connectApiToAuth(queryClient);
  useAuthStore.getState().hydrate();
  return render(
    <MemoryRouter initialEntries={[path]}>
      <LocationProbe />
      <AppContent queryClient={queryClient} />
    </MemoryRouter>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

describe('route guards', () => {
  beforeEach(() => {
    currentPath = '';
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each(['/', '/home', '/media', '/messenger', '/settings/profile', '/anna', '/media/post/5'])(
    'sends a guest from %s to /login',
    async (path) => {
      renderAt(path);
      expect(await screen.findByRole('heading', { name: 'Вход' })).toBeInTheDocument();
      expect(currentPath).toBe('/login');
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('shows the register form to a guest', async () => {
    renderAt('/register');
    expect(await screen.findByRole('heading', { name: 'Регистрация' })).toBeInTheDocument();
    expect(screen.getByLabelText('Имя пользователя')).toBeInTheDocument();
    expect(screen.getByLabelText('Имя')).toBeInTheDocument();
    expect(screen.getByLabelText('Пароль')).toBeInTheDocument();
  });

  it('sends a signed-in user from /login and /register to /home', async () => {
    storeSession();
    fetchMock.mockImplementation(async () => jsonResponse({ user: me }));
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Главная' })).toBeInTheDocument();
    expect(currentPath).toBe('/home');
  });

  it('validates the stored token with GET /auth/me before showing protected routes', async () => {
    storeSession('stored-token');
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderAt('/messenger');
    expect(screen.getByText('Загрузка...')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/auth/me');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer stored-token');

    answer(jsonResponse({ user: { ...me, name: 'Анна Новая' } }));
    expect(
      await screen.findByText('Выберите чат для начала общения', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(StorageKeys.authUser) ?? '').name).toBe('Анна Новая');
  });

  it('a 401 for the stored token clears auth and leads to /login', async () => {
    storeSession('revoked');
    fetchMock.mockImplementation(async () =>
      jsonResponse({ error: 'Нет активной сессии', code: 'unauthorized' }, 401),
    );
    renderAt('/home');
    expect(await screen.findByRole('heading', { name: 'Вход' })).toBeInTheDocument();
    expect(currentPath).toBe('/login');
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBeNull();
    expect(useAuthStore.getState().auth.status).toBe('guest');
  });

  it('redirects /feed to /media', async () => {
    storeSession();
    fetchMock.mockImplementation(async () => jsonResponse({ user: me }));
    renderAt('/feed');
    expect(await screen.findByText('Пока нет контента', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Будьте первым, кто опубликует!')).toBeInTheDocument();
    expect(currentPath).toBe('/media');
  });
});
