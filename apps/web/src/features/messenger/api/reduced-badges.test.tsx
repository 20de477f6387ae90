import type { ChatListItem, Settings } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { jsonResponse, me, settingsOf } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { settingsKeys } from '../../settings/api/settings-queries.ts';
import { MessengerUnreadBadge } from '../../shell/components/MessengerUnreadBadge.tsx';
import { ChatListRow } from '../components/ChatListRow.tsx';
import { messengerKeys } from './messenger-keys.ts';
import { useToggleReducedBadges } from './reduced-badges.ts';

const fetchMock = vi.fn<typeof fetch>();

const chat = (userId: number, unread: number): ChatListItem => ({
  type: 'personal',
  user_id: userId,
  username: `user${userId}`,
  avatar_url: null,
  avatar_thumbnail_url: null,
  is_favorites: false,
  is_pinned: false,
  pin_order: null,
  unread_count: unread,
  last_message: null,
  last_time: '2025-01-01T00:00:00.000Z',
  last_seen: null,
});

function setup(reduced: boolean) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  queryClient.setQueryData(settingsKeys.document(), settingsOf({ reduced_badges: reduced }));
  queryClient.setQueryData(messengerKeys.chats(), { chats: [chat(2, 3), chat(3, 120)] });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { queryClient, wrapper };
}

describe('reduced unread badges follow the server setting', () => {
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('the navigation badge shows the count, or a dot without it when reduced', () => {
    const full = setup(false);
    const { unmount } = render(<MessengerUnreadBadge />, { wrapper: full.wrapper });
    expect(screen.getByTestId('messenger-unread-total')).toHaveTextContent('99+');
    unmount();
    const reduced = setup(true);
    render(<MessengerUnreadBadge />, { wrapper: reduced.wrapper });
    const badge = screen.getByTestId('messenger-unread-total');
    expect(badge).toHaveTextContent('');
    expect(badge).toHaveAccessibleName('Непрочитанных: 123');
  });

  it('a chat row shows a dot instead of the number when reduced', () => {
    const row = (reducedBadges: boolean) => (
      <ChatListRow
        chat={chat(2, 3)}
        ownId={me.id}
        selected={false}
        reducedBadges={reducedBadges}
        onSelect={vi.fn()}
        onMenu={vi.fn()}
      />
    );
    const { rerender } = render(row(false));
    expect(screen.getByTestId('unread-badge')).toHaveTextContent('3');
    rerender(row(true));
    expect(screen.getByTestId('unread-badge')).toHaveTextContent('');
  });

  it('the menu toggle writes the server setting, and the badge follows at once', async () => {
    const { queryClient, wrapper } = setup(false);
    let answer: (settings: Settings) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise((resolve) => (answer = (s) => resolve(jsonResponse(s)))));
    render(<MessengerUnreadBadge />, { wrapper });
    const { result } = renderHook(() => useToggleReducedBadges(), { wrapper });
    act(() => result.current());
    await waitFor(() => expect(screen.getByTestId('messenger-unread-total')).toHaveTextContent(''));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/settings');
    expect(init?.method).toBe('PATCH');
    expect(JSON.parse(String(init?.body))).toEqual({ chat: { reduced_badges: true } });
    expect(localStorage.getItem(StorageKeys.messengerHideUnreadBadges)).toBe('true');
    act(() => answer(settingsOf({ reduced_badges: true })));
    await waitFor(() =>
      expect(queryClient.getQueryData<Settings>(settingsKeys.document())?.chat.reduced_badges).toBe(true),
    );
  });
});
