import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../../test/fixtures.ts';
import { UserSearchPanel } from './UserSearchPanel.tsx';

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/media']}>
        <Routes>
          <Route path="/media" element={<UserSearchPanel onClose={() => {}} />} />
          <Route path="/:username" element={<p>профиль открыт</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('UserSearchPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('searches people and opens a profile', async () => {
    const fetch = vi.fn().mockResolvedValue(
      jsonResponse({
        users: [{ id: 9, username: 'boris', name: 'Борис', avatar_url: null, avatar_thumbnail_url: null }],
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPanel();
    await userEvent.type(screen.getByLabelText('Поиск пользователей'), 'бор');
    await userEvent.click(await screen.findByRole('button', { name: /@boris/ }));
    expect(fetch.mock.calls.at(-1)?.[0]).toBe(`/api/v1/profile/search/users?q=${encodeURIComponent('бор')}`);
    expect(screen.getByText('профиль открыт')).toBeInTheDocument();
  });

  it('says when nobody matches', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ users: [] })));
    renderPanel();
    await userEvent.type(screen.getByLabelText('Поиск пользователей'), 'zzz');
    expect(await screen.findByText('Пользователи не найдены')).toBeInTheDocument();
  });
});
