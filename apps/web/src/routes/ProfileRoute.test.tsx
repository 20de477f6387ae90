import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { profileKeys } from '../features/profile/api/profile-queries.ts';
import { jsonResponse, profileOf } from '../test/fixtures.ts';
import { postOf } from '../test/posts.ts';
import ProfileRoute from './ProfileRoute.tsx';

const fetchMock = vi.fn<typeof fetch>();
let navigateTo: (path: string) => void = () => {};
// The profile name on the page at every commit, while `committed` is recording.
let committed: Array<string | null> | null = null;
const recordCommit = () => committed?.push(document.querySelector('#profile-name')?.textContent ?? null);

function NavigateProbe() {
  navigateTo = useNavigate();
  return null;
}

function renderAt(path: string, { useTransitions = true } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]} useTransitions={useTransitions}>
        <NavigateProbe />
        <Profiler id="profile" onRender={recordCommit}>
          <Routes>
            <Route path=":username" element={<ProfileRoute />} />
          </Routes>
        </Profiler>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return queryClient;
}

/** Answers the profile page's calls: profiles by username, `posts` for the grid (or a 500), no blocked users. */
function answer(posts: 'ok' | 'fail') {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.includes('/settings/blocked')) return jsonResponse({ users: [] });
    if (url.includes('/media/user/')) {
      return posts === 'ok'
        ? jsonResponse({ posts: [postOf({ id: 3, caption: 'Закат' })], has_more: false })
        : jsonResponse({ error: 'Внутренняя ошибка сервера', code: 'internal' }, 500);
    }
    if (url.includes('/profile/vera'))
      return jsonResponse(profileOf({ id: 10, username: 'vera', name: 'Вера' }));
    if (url.includes('/profile/boris')) return jsonResponse(profileOf());
    return jsonResponse({ error: 'Не найдено', code: 'not_found' }, 404);
  });
}

describe('ProfileRoute', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the card and the grid once the profile and its posts arrive', async () => {
    answer('ok');
    renderAt('/boris');
    expect(await screen.findByRole('heading', { name: 'Борис' }, { timeout: 5000 })).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Открыть публикацию 1' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('says there are no posts when the grid fails to load, not a spinner for ever', async () => {
    answer('fail');
    renderAt('/boris');
    expect(await screen.findByText('Пока нет публикаций', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('never shows the previous user while the next cached profile catches up', async () => {
    answer('ok');
    // Without a transition the navigation renders urgently: the deferred copy must not show Борис on /vera.
    const queryClient = renderAt('/boris', { useTransitions: false });
    await screen.findByRole('heading', { name: 'Борис' }, { timeout: 5000 });
    queryClient.setQueryData(
      profileKeys.detail('vera'),
      profileOf({ id: 10, username: 'vera', name: 'Вера' }),
    );

    committed = [];
    await act(async () => navigateTo('/vera'));
    expect(await screen.findByRole('heading', { name: 'Вера' }, { timeout: 5000 })).toBeInTheDocument();
    expect(committed).toContain('Вера');
    expect(committed).not.toContain('Борис');
    committed = null;
  });
});
