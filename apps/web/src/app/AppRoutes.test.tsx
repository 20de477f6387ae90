import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../features/auth/auth-store.ts';
import { StorageKeys } from '../shared/storage/keys.ts';
import { jsonResponse, me, storeSession } from '../test/fixtures.ts';
import { AppContent } from './App.tsx';
import { connectApiToAuth } from './connect-api.ts';

vi.mock('../shared/realtime/socket.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../shared/realtime/socket.ts')>();
  const fakeSocket = {
    on: vi.fn(),
    off: vi.fn(),
    onAny: vi.fn(),
    offAny: vi.fn(),
    listeners: vi.fn(() => []),
    removeAllListeners: vi.fn(),
    disconnect: vi.fn(),
  };
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
  // The shell's pages are lazy: their first import is a transform of a large module tree, which on a loaded
  // machine took more than the tests' 5 s wait (CI). Loaded once here, the tests time what the app does.
  beforeAll(async () => {
    await import('../features/messenger/components/MessengerView.tsx');
    await import('../features/shell/components/MediaView.tsx');
  }, 120_000);

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
    // /auth/me answers the user; the moderation role and notices the shell asks for answer empty.
    fetchMock.mockImplementation(async (input) =>
      jsonResponse(
        String(input).includes('/moderation/') ? { is_moderator: false, notices: [] } : { user: me },
      ),
    );
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Главная' })).toBeInTheDocument();
    expect(currentPath).toBe('/home');
  });

  it('starts the page from the stored session while GET /auth/me confirms it beside its requests', async () => {
    storeSession('stored-token');
    const answers = new Map<string, (response: Response) => void>();
    fetchMock.mockImplementation(
      (input) => new Promise<Response>((resolve) => answers.set(String(input).split('?')[0] ?? '', resolve)),
    );
    renderAt('/messenger');
    // The chat list is asked for before /auth/me answers: no round trip in front of the content.
    await waitFor(() => expect([...answers.keys()]).toContain('/api/v1/messages/chats'));
    expect([...answers.keys()]).toContain('/api/v1/auth/me');
    const me_ = fetchMock.mock.calls.find(([url]) => url === '/api/v1/auth/me');
    expect(new Headers(me_?.[1]?.headers).get('Authorization')).toBe('Bearer stored-token');

    answers.get('/api/v1/messages/chats')?.(jsonResponse({ chats: [], has_more: false }));
    answers.get('/api/v1/auth/me')?.(jsonResponse({ user: { ...me, name: 'Анна Новая' } }));
    expect(
      await screen.findByText('Выберите чат для начала общения', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(StorageKeys.authUser) ?? '').name).toBe('Анна Новая'),
    );
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
    fetchMock.mockImplementation(async (input) =>
      jsonResponse(
        String(input).includes('/moderation/') ? { is_moderator: false, notices: [] } : { user: me },
      ),
    );
    renderAt('/feed');
    expect(await screen.findByText('Пока нет контента', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Будьте первым, кто опубликует!')).toBeInTheDocument();
    expect(currentPath).toBe('/media');
  });
});
