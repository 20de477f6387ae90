import type { FollowListUser } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, profileOf } from '../../../test/fixtures.ts';
import { ProfileStats } from './ProfileStats.tsx';

const person = (id: number, name: string, is_following = false): FollowListUser => ({
  id,
  username: `user${id}`,
  name,
  avatar_url: null,
  avatar_thumbnail_url: null,
  is_following,
});

/** Answers the follow-list pages by offset and records every call as `METHOD /path?query`. */
function stubApi(pages: Record<string, { users: FollowListUser[]; has_more: boolean }>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${path}${url.search}`);
      if (method === 'POST')
        return jsonResponse({ is_following: true, is_requested: false, followers_count: 1 });
      if (method === 'DELETE')
        return jsonResponse({ is_following: false, is_requested: false, followers_count: 0 });
      const page = pages[`${path}@${url.searchParams.get('offset') ?? '0'}`];
      return page ? jsonResponse(page) : jsonResponse({ error: 'нет', code: 'not_found' }, 404);
    }),
  );
  return calls;
}

function renderStats(canOpenLists = true) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <ProfileStats
          profile={profileOf({ username: 'star', posts_count: 2, followers_count: 31, following_count: 0 })}
          canOpenLists={canOpenLists}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('ProfileStats', () => {
  it('the follower count opens the list; the toggle follows; more pages load at the next offset', async () => {
    const first = Array.from({ length: 30 }, (_, i) => person(100 + i, `Человек ${i}`, i === 1));
    const calls = stubApi({
      '/profile/star/followers@0': { users: first, has_more: true },
      '/profile/star/followers@30': { users: [person(200, 'Последний')], has_more: false },
    });
    renderStats();
    expect(screen.getByTestId('stat-posts').tagName).not.toBe('BUTTON');

    fireEvent.click(screen.getByRole('button', { name: /31 подписчик.*открыть список/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Подписчики' });
    const list = await within(dialog).findByRole('list', { name: 'Подписчики' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(30);
    expect(within(list).getByRole('link', { name: /Человек 0.*@user100/ })).toHaveAttribute(
      'href',
      '/user100',
    );
    expect(within(list).getByRole('button', { name: 'Отписаться от Человек 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    fireEvent.click(within(list).getByRole('button', { name: 'Подписаться на Человек 0' }));
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'Отписаться от Человек 0' })).toBeTruthy(),
    );
    expect(calls).toContain('POST /profile/user100/follow');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Показать ещё' }));
    expect(await within(dialog).findByText('Последний')).toBeTruthy();
    expect(calls.some((c) => c.startsWith('GET /profile/star/followers') && c.includes('offset=30'))).toBe(
      true,
    );
    expect(within(dialog).queryByRole('button', { name: 'Показать ещё' })).toBeNull();
  });

  it('an empty following list says so', async () => {
    stubApi({ '/profile/star/following@0': { users: [], has_more: false } });
    renderStats();
    fireEvent.click(screen.getByRole('button', { name: /0 подписок.*открыть список/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Подписки' });
    expect(await within(dialog).findByText('Пока ни на кого не подписан')).toBeTruthy();
  });

  it('a private account’s counts open nothing for a non-follower', () => {
    stubApi({});
    renderStats(false);
    expect(screen.getByTestId('stat-followers').tagName).not.toBe('BUTTON');
    expect(screen.getByTestId('stat-followers').textContent).toContain('31');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
