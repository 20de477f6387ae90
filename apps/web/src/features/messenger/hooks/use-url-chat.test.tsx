import type { ChatListItem } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse, me, profileOf } from '../../../test/fixtures.ts';
import { profileKeys } from '../../profile/api/profile-queries.ts';
import { useUrlChat } from './use-url-chat.ts';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** /messenger/boris with no chat list yet (a reload restoring the device's snapshot), then `chats`. */
function openLink() {
  const queryClient = new QueryClient();
  const open = vi.fn<(chat: ChatListItem, draft: boolean) => void>();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/messenger/boris']}>
        <Routes>
          <Route path="/messenger/:username?" element={children} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>
  );
  const hook = renderHook(
    ({ chats }: { chats: ChatListItem[] | undefined }) => {
      const { pathname } = useLocation();
      const username = pathname.split('/')[2];
      return { pathname, ...useUrlChat(username, me, chats, open) };
    },
    { wrapper, initialProps: { chats: undefined as ChatListItem[] | undefined } },
  );
  const profileState = () => queryClient.getQueryState(profileKeys.detail('boris'));
  return { hook, open, profileState };
}

it('offline, a chat link keeps its URL when the profile request fails, and opens the kept chat once restored', async () => {
  fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
  const { hook, open, profileState } = openLink();
  // The request has failed: no answer from the server is no reason to leave.
  await waitFor(() => expect(profileState()?.status).toBe('error'));
  expect(hook.result.current.pathname).toBe('/messenger/boris');
  expect(hook.result.current.missing).toBe(false);

  const boris = chatOf();
  hook.rerender({ chats: [boris] });
  await waitFor(() => expect(open).toHaveBeenCalledWith(boris, false));
  expect(hook.result.current.pathname).toBe('/messenger/boris');
});

it('a profile the server refuses goes back to the list; an unknown one is a missing chat', async () => {
  fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Ошибка сервера', code: 'INTERNAL' }, 500));
  const refused = openLink();
  await waitFor(() => expect(refused.hook.result.current.pathname).toBe('/messenger'));

  fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Пользователь не найден', code: 'NOT_FOUND' }, 404));
  const unknown = openLink();
  await waitFor(() => expect(unknown.hook.result.current.missing).toBe(true));
  expect(unknown.hook.result.current.pathname).toBe('/messenger/boris');
});

it('a user that exists and has no chat yet opens a new one', async () => {
  fetchMock.mockResolvedValueOnce(jsonResponse(profileOf()));
  const { hook, open } = openLink();
  hook.rerender({ chats: [] });
  await waitFor(() => expect(open).toHaveBeenCalledWith(expect.objectContaining({ user_id: 9 }), true));
});

it('offline, a link to someone with no kept chat opens a new one when the network is back', async () => {
  fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
  const { hook, open, profileState } = openLink();
  hook.rerender({ chats: [] });
  await waitFor(() => expect(profileState()?.status).toBe('error'));
  expect(hook.result.current.pathname).toBe('/messenger/boris');
  expect(open).not.toHaveBeenCalled();

  fetchMock.mockResolvedValueOnce(jsonResponse(profileOf()));
  window.dispatchEvent(new Event('online'));
  await waitFor(() => expect(open).toHaveBeenCalledWith(expect.objectContaining({ user_id: 9 }), true));
  expect(hook.result.current.pathname).toBe('/messenger/boris');
});
