import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../auth-store.ts';
import { RegisterForm } from './RegisterForm.tsx';

const fetchMock = vi.fn<typeof fetch>();

function renderForm() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/register']}>
        <Routes>
          <Route path="/register" element={<RegisterForm />} />
          <Route path="/home" element={<p>Главная открыта</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function fill(username: string, name: string, password: string) {
  const user = userEvent.setup();
  if (username) await user.type(screen.getByLabelText('Имя пользователя'), username);
  if (name) await user.type(screen.getByLabelText('Имя'), name);
  if (password) await user.type(screen.getByLabelText('Пароль'), password);
  await user.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
}

describe('RegisterForm', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ auth: { status: 'guest' } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('checks the contract limits before calling the server', async () => {
    renderForm();
    await fill('AB', '', 'short');
    expect(screen.getByLabelText('Имя пользователя')).toHaveAccessibleDescription(
      'Имя пользователя: от 3 до 32 символов, только a–z, 0–9 и _',
    );
    expect(screen.getByLabelText('Имя')).toHaveAccessibleDescription('Заполните это поле');
    expect(screen.getByLabelText('Пароль')).toHaveAccessibleDescription(
      'Пароль должен быть не короче 8 символов',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a strength hint while the password is typed, and refuses weak shapes before the server', async () => {
    renderForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Имя пользователя'), 'anna_k');
    const password = screen.getByLabelText('Пароль');
    await user.type(password, 'qwertyui');
    expect(screen.getByRole('status')).toHaveTextContent('Надёжность пароля: слабый');
    await user.clear(password);
    await user.type(password, 'лодка плывёт к маяку');
    expect(screen.getByRole('status')).toHaveTextContent('Надёжность пароля: надёжный');
    await user.clear(password);
    await user.type(password, 'my-anna_k-1');
    expect(screen.getByRole('status')).toHaveTextContent('Пароль не должен содержать имя пользователя');
    await user.clear(password);
    await user.type(password, 'aaaaaaaa');
    await user.type(screen.getByLabelText('Имя'), 'Анна');
    await user.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    expect(password).toHaveAccessibleDescription('Пароль не может состоять из одного повторяющегося символа');
    expect(fetchMock).not.toHaveBeenCalled();
    // Typing four passwords key by key takes a while on a loaded machine.
  }, 20_000);

  it('shows the server field message under the username input', async () => {
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
    renderForm();
    await fill('anna', 'Анна', 'long-password');
    const input = screen.getByLabelText('Имя пользователя');
    expect(await screen.findByText('Это имя пользователя уже занято')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Это имя пользователя уже занято');
  });

  it('shows a form-level message when the server names no field', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ error: 'Слишком много попыток. Попробуйте позже', code: 'rate_limited' }, 429),
    );
    renderForm();
    await fill('anna', 'Анна', 'long-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Слишком много попыток. Попробуйте позже');
  });

  it('stores the session and goes to /home on success', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ access_token: 'new-token', user: me }, 201));
    renderForm();
    await fill('anna', 'Анна', 'long-password');
    expect(await screen.findByText('Главная открыта')).toBeInTheDocument();
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBe('new-token');
    expect(JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string)).toEqual({
      username: 'anna',
      name: 'Анна',
      password: 'long-password',
    });
  });
});
