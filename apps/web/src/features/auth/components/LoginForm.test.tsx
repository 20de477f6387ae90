import { createHash } from 'node:crypto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../auth-store.ts';
import { LoginForm } from './LoginForm.tsx';

const fetchMock = vi.fn<typeof fetch>();

function renderForm() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginForm />} />
          <Route path="/home" element={<p>Главная открыта</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signIn(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Имя пользователя'), username);
  await user.type(screen.getByLabelText('Пароль'), password);
  await user.click(screen.getByRole('button', { name: 'Войти' }));
}

const sentBody = (call: number) => JSON.parse(fetchMock.mock.calls[call]?.[1]?.body as string);

describe('LoginForm', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    localStorage.clear();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ auth: { status: 'guest' } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('solves a login challenge the server asks for and signs in; the device token is kept for next time', async () => {
    const challenge = {
      token: 'eyJ1IjoiYW5uYSJ9.sig',
      difficulty: 10,
      expires_at: '2030-01-01T00:00:00.000Z',
    };
    fetchMock
      .mockResolvedValueOnce(
        jsonResponse({ error: 'Нужна проверка', code: 'login_challenge_required', challenge }, 403),
      )
      .mockResolvedValueOnce(jsonResponse({ access_token: 'tok', user: me, device_token: 'dev-1' }));
    renderForm();
    await signIn('anna', 'right password');
    expect(await screen.findByText('Главная открыта')).toBeInTheDocument();
    const retry = sentBody(1);
    expect(retry.challenge.token).toBe(challenge.token);
    const digest = createHash('sha256').update(`${challenge.token}:${retry.challenge.nonce}`).digest();
    expect(digest[0]).toBe(0);
    expect((digest[1] as number) >> 6).toBe(0);
    expect(JSON.parse(localStorage.getItem(StorageKeys.authDevices) as string)).toEqual({ anna: 'dev-1' });
  });

  it('sends the device token this device got for the account', async () => {
    localStorage.setItem(StorageKeys.authDevices, JSON.stringify({ anna: 'dev-7' }));
    fetchMock.mockResolvedValueOnce(jsonResponse({ access_token: 'tok', user: me, device_token: 'dev-7' }));
    renderForm();
    await signIn('Anna', 'right password');
    expect(await screen.findByText('Главная открыта')).toBeInTheDocument();
    expect(sentBody(0)).toEqual({ username: 'Anna', password: 'right password', device_token: 'dev-7' });
  });
});
