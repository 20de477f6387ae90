import type { Notification, NotificationsResponse } from '@kadr/contract';
import { type InfiniteData, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { notificationsKeys, useMarkAllRead, useMarkRead } from './notifications-queries.ts';

const item = (id: number, type: Notification['type'], is_read = false): Notification => ({
  id,
  type,
  text: `n${id}`,
  created_at: new Date().toISOString(),
  is_read,
  username: 'boris',
  display_name: 'Борис',
  preview_url: null,
  post_id: null,
  others_count: 0,
  url: '/boris',
  chat_key: null,
});

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const page: NotificationsResponse = {
    groups: [
      { key: 'engagement', title: 'E', items: [item(3, 'like'), item(2, 'repost', true)], unread_count: 1 },
      { key: 'follows', title: 'F', items: [item(1, 'follow')], unread_count: 1 },
      { key: 'comments', title: 'C', items: [], unread_count: 0 },
    ],
    unread_total: 2,
    has_more: false,
  };
  queryClient.setQueryData<InfiniteData<NotificationsResponse, number>>(notificationsKeys.list(), {
    pages: [page],
    pageParams: [0],
  });
  queryClient.setQueryData(notificationsKeys.unread(), 2);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => ({ one: useMarkRead(), all: useMarkAllRead() }), { wrapper });
  const groups = () =>
    queryClient.getQueryData<InfiniteData<NotificationsResponse, number>>(notificationsKeys.list())!.pages[0]!
      .groups;
  const unread = () => queryClient.getQueryData<number>(notificationsKeys.unread());
  return { hook, groups, unread };
}

describe('marking notifications read (spec §4.6: optimistic)', () => {
  beforeEach(() => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('marks one at once, then takes the server count', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn().mockReturnValue(new Promise<Response>((r) => (answer = r))));
    const { hook, groups, unread } = setup();
    act(() => hook.result.current.one.mutate(3));
    await waitFor(() => expect(unread()).toBe(1));
    expect(groups()[0]!.items[0]!.is_read).toBe(true);
    expect(groups()[0]!.unread_count).toBe(0);
    expect(groups()[1]!.unread_count).toBe(1);
    answer(jsonResponse({ id: 3, is_read: true, unread_total: 1 }));
    await waitFor(() => expect(hook.result.current.one.isSuccess).toBe(true));
    expect(unread()).toBe(1);
  });

  it('rolls back read-all when the server refuses', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ error: 'x', code: 'internal' }, 500)));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { hook, groups, unread } = setup();
    act(() => hook.result.current.all.mutate());
    await waitFor(() => expect(hook.result.current.all.isError).toBe(true));
    expect(unread()).toBe(2);
    expect(groups()[1]!.items[0]!.is_read).toBe(false);
    expect(groups()[0]!.unread_count).toBe(1);
  });

  it('read-all zeroes every group at once', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ unread_total: 0 })));
    const { hook, groups, unread } = setup();
    act(() => hook.result.current.all.mutate());
    await waitFor(() => expect(unread()).toBe(0));
    expect(groups().every((g) => g.unread_count === 0 && g.items.every((x) => x.is_read))).toBe(true);
  });
});
