import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { AccountExtras } from './SettingsSections.tsx';

function stubApi() {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'DELETE' && url.includes('/account')) return jsonResponse({ ok: true });
    if (url.includes('/sessions')) return jsonResponse({ sessions: [] });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const deletes = (fetch: ReturnType<typeof stubApi>) =>
  fetch.mock.calls.filter(([url]) => String(url).includes('/account/delete'));

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => vi.unstubAllGlobals());

describe('deleting the account', () => {
  it('asks once more after the password; «Отмена» deletes nothing, the confirmation deletes it', async () => {
    const fetch = stubApi();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AccountExtras />
      </QueryClientProvider>,
    );
    const form = screen.getByRole('form', { name: 'Удалить аккаунт' });
    fireEvent.change(within(form).getByLabelText('Пароль для подтверждения'), {
      target: { value: 'secret-password-1' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Удалить аккаунт навсегда' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Удалить аккаунт?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletes(fetch)).toHaveLength(0);

    fireEvent.click(within(form).getByRole('button', { name: 'Удалить аккаунт навсегда' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить аккаунт навсегда' }),
    );
    await waitFor(() => expect(deletes(fetch)).toHaveLength(1));
    const [, init] = deletes(fetch)[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      password: 'secret-password-1',
    });
  });
});
