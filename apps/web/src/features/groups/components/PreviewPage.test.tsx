import type { Channel, Group } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { useReportUi } from '../../moderation/report-store.ts';
import { roomKey } from '../api/groups-api.ts';
import { ChannelPreviewPage, GroupSlugPage } from './PreviewPage.tsx';

const group = (is_public: boolean): Group => ({
  id: 3,
  name: 'Клуб',
  slug: 'club',
  description: '',
  avatar_url: null,
  is_public,
  inviteToken: null,
  isMember: false,
  role: null,
  memberCount: 4,
  owner_id: 99,
  created_at: '2026-01-01T00:00:00.000Z',
});

const channel: Channel = {
  id: 5,
  name: 'Новости',
  slug: 'news',
  description: '',
  avatar_url: null,
  is_public: true,
  subscribers_count: 3,
  is_subscribed: false,
  can_post: false,
  role: null,
  owner_id: me.id + 1,
  created_at: '2026-01-01T00:00:00.000Z',
  last_post: null,
  last_post_time: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
  useReportUi.getState().close();
});

describe('a room preview', () => {
  it("sends a member on to the chat in the preview's place: «Назад» leaves the way the link came in", async () => {
    vi.stubGlobal('fetch', async () => jsonResponse({ ...group(true), isMember: true }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let goBack = () => {};
    function Where() {
      const location = useLocation();
      const navigate = useNavigate();
      goBack = () => navigate(-1);
      return <output data-testid="where">{location.pathname}</output>;
    }
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/messenger/alice', '/messenger/group/club']} initialIndex={1}>
          <Routes>
            <Route path="/messenger/group/:slug" element={<GroupSlugPage />} />
            <Route path="*" element={null} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/messenger'));
    act(() => goBack());
    // A pushed entry would lead back to the preview, which sends a member on again: a trap.
    expect(screen.getByTestId('where').textContent).toBe('/messenger/alice');
  });

  it("starts loading a member's group history before the chat opens", async () => {
    const { wrapper, queryClient, urls } = stubbedApp((url) =>
      url.includes('/messages') ? jsonResponse([]) : jsonResponse({ ...group(true), isMember: true }),
    );
    render(<GroupSlugPage />, { wrapper });
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(roomKey('group', 3))).toEqual({ messages: [], has_more: false }),
    );
    expect(urls().filter((url) => url.includes('/groups/3/messages'))).toHaveLength(1);
  });

  it('lets a visitor report a public group without joining it', async () => {
    const { wrapper } = stubbedApp(() => jsonResponse(group(true)));
    render(<GroupSlugPage />, { wrapper });
    fireEvent.click(await screen.findByRole('button', { name: 'Пожаловаться на группу' }));
    expect(useReportUi.getState().target).toMatchObject({ kind: 'group', targetId: 3 });
  });

  it('offers no report on a private group seen through an invitation (the server would not take it)', async () => {
    const { wrapper } = stubbedApp(() => jsonResponse(group(false)));
    render(<GroupSlugPage />, { wrapper });
    await screen.findByRole('button', { name: 'Вступить' });
    expect(screen.queryByRole('button', { name: 'Пожаловаться на группу' })).toBeNull();
  });

  it('lets a visitor report a public channel from its preview', async () => {
    const { wrapper } = stubbedApp((url) =>
      url.includes('/posts') ? jsonResponse({ messages: [], has_more: false }) : jsonResponse(channel),
    );
    render(<ChannelPreviewPage />, { wrapper });
    fireEvent.click(await screen.findByRole('button', { name: 'Пожаловаться на канал' }));
    expect(useReportUi.getState().target).toMatchObject({ kind: 'channel', targetId: 5 });
  });
});
