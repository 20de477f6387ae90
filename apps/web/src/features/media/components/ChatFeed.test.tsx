import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { ChatFeed } from './ChatFeed.tsx';

function serve(routes: Record<string, unknown>) {
  const fetch = vi.fn(async (url: string) => {
    const path = new URL(url, 'http://localhost').pathname;
    const body = routes[path];
    return body ? jsonResponse(body) : jsonResponse({ error: 'Не найдено', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderChatFeed(chatType: 'personal' | 'group' = 'personal', openPostId: number | null = null) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/messenger/anna', '/media']} initialIndex={1}>
        <Routes>
          <Route path="/messenger/anna" element={<p>Окно чата</p>} />
          <Route
            path="/media"
            element={
              <ChatFeed
                mode={{ from: 'chat', chatId: 5, chatType, chatName: 'Анна' }}
                blacklist={new Set()}
                openPostId={openPostId}
              />
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('ChatFeed', () => {
  beforeEach(() => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the posts linked in the chat under "Чат: <name>" and goes back to the chat', async () => {
    const post = postOf({ id: 41, caption: 'Закат над морем' });
    serve({
      '/api/v1/messages/conversation': {
        messages: [
          {
            id: 1,
            sender_id: 5,
            content: 'смотри http://localhost/media/post/41',
            created_at: new Date().toISOString(),
          },
        ],
        has_more: false,
      },
      '/api/v1/media/post/41': { post },
    });
    // Opened from the chat inside the app: the browser router's history entry says so (idx 1).
    window.history.replaceState({ idx: 1 }, '');
    renderChatFeed();
    expect(screen.getByRole('heading', { name: 'Чат: Анна' })).toBeInTheDocument();
    expect(await screen.findByText('Закат над морем')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Назад к чату' }));
    window.history.replaceState(null, '');
    expect(await screen.findByText('Окно чата')).toBeInTheDocument();
  });

  it('titles a group "Группа: <name>" and shows the empty state when nothing is linked', async () => {
    serve({});
    renderChatFeed('group');
    expect(screen.getByRole('heading', { name: 'Группа: Анна' })).toBeInTheDocument();
    expect(await screen.findByText('Пока нет контента')).toBeInTheDocument();
  });

  it('opens on the post card that was tapped, fetched when the chat scan has not found it', async () => {
    serve({ '/api/v1/media/post/41': { post: postOf({ id: 41, caption: 'Закат над морем' }) } });
    const { container } = renderChatFeed('group', 41);
    expect(await screen.findByText('Закат над морем')).toBeInTheDocument();
    expect(container.querySelector('article[aria-current="true"]')).toHaveAttribute('data-post-id', '41');
  });
});
