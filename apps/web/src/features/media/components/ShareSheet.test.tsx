import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { ShareSheet } from './ShareSheet.tsx';

const vera = { id: 21, username: 'vera', name: 'Вера', avatar_url: null, avatar_thumbnail_url: null };

/** A new user: no chats at all; people search finds Вера. */
function stubApi() {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.includes('/messages/chats')) return jsonResponse({ chats: [] });
    if (url.includes('/profile/search/users')) return jsonResponse({ users: [vera] });
    if (init?.method === 'POST' && url.endsWith('/messages')) return jsonResponse({ message: {} });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => vi.unstubAllGlobals());

describe('sharing a post without any chats yet', () => {
  it('offers «Избранное» and people found by name, and sends to both', async () => {
    const fetch = stubApi();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ShareSheet post={postOf({ id: 5 })} onClose={vi.fn()} onReposted={vi.fn()} onUndoRepost={vi.fn()} />
      </QueryClientProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Отправить в чат' });
    expect(within(list).getByRole('checkbox', { name: 'Избранное' })).toBeInTheDocument();
    expect(screen.queryByText('Пока нет чатов')).toBeNull();

    fireEvent.click(within(list).getByRole('checkbox', { name: 'Избранное' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Найти людей' }), { target: { value: 'вер' } });
    // A person found by name; what was ticked before the search stays ticked.
    fireEvent.click(await within(list).findByRole('checkbox', { name: /^Вера/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Отправить (2)' }));

    await waitFor(() =>
      expect(
        fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
      ).toHaveLength(2),
    );
    const bodies = fetch.mock.calls
      .filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
      .map(
        ([, init]) =>
          JSON.parse(String((init as RequestInit).body)) as { other_user_id: number; content: string },
      );
    expect(bodies.map((b) => b.other_user_id).sort()).toEqual([me.id, vera.id].sort());
    expect(bodies[0]?.content).toContain('/media/post/5');
  });
});
