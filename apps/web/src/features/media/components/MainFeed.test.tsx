import type { Post } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { useMediaMode } from '../modes/media-mode-store.ts';
import { MainFeed } from './MainFeed.tsx';

function renderFeed(openPostId: number | null = null) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MainFeed openPostId={openPostId} blacklist={new Set()} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function serveFeed(posts: Post[]) {
  const fetch = vi.fn().mockResolvedValue(jsonResponse({ posts, has_more: false }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('MainFeed', () => {
  beforeEach(() => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    useFeedUi.setState({ feedIndex: null, revealed: new Set() });
    useMediaMode.setState({ mode: 'none' });
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the loading text, then the empty texts', async () => {
    serveFeed([]);
    renderFeed();
    expect(screen.getByText('Загрузка...')).toBeInTheDocument();
    expect(await screen.findByText('Пока нет контента')).toBeInTheDocument();
    expect(screen.getByText('Будьте первым, кто опубликует!')).toBeInTheDocument();
  });

  it('a link to a private account’s post says the account is private, as its profile does', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/media/feed')
          ? jsonResponse({ posts: [postOf({ id: 1 })], has_more: false })
          : jsonResponse({ error: 'Это закрытый аккаунт', code: 'private_account' }, 403),
      ),
    );
    renderFeed(7);
    const notice = await screen.findByTestId('post-private');
    expect(within(notice).getByRole('heading', { name: 'Это закрытый аккаунт' })).toBeInTheDocument();
    expect(within(notice).getByRole('button', { name: 'Назад к ленте' })).toBeInTheDocument();
    expect(screen.queryByTestId('post-not-found')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('a link to a missing post still says it was not found', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/media/feed')
          ? jsonResponse({ posts: [], has_more: false })
          : jsonResponse({ error: 'Публикация не найдена', code: 'not_found' }, 404),
      ),
    );
    renderFeed(7);
    expect(await screen.findByTestId('post-not-found')).toBeInTheDocument();
    expect(screen.queryByText('Это закрытый аккаунт')).not.toBeInTheDocument();
  });

  it('asks for 15 posts from offset 0', async () => {
    const fetch = serveFeed([]);
    renderFeed();
    await screen.findByText('Пока нет контента');
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/media/feed?offset=0&limit=15');
  });

  it('logs a failed load and shows nothing', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ error: 'x', code: 'internal' }, 503)));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderFeed();
    expect(await screen.findByText('Пока нет контента')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to load posts: 503');
  });

  it('treats an answer without posts as a failed load', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ unexpected: true })));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderFeed();
    expect(await screen.findByText('Пока нет контента')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to load posts: 200');
  });

  it('sleep mode shows only for_sleep posts, or the moon text', async () => {
    useMediaMode.setState({ mode: 'sleep' });
    serveFeed([
      postOf({ id: 1, ai_tags: ['city'] }),
      postOf({ id: 2, ai_tags: ['for_sleep', 'night'] }),
      postOf({ id: 3, ai_tags: ['dynamic'] }),
    ]);
    const { unmount } = renderFeed();
    expect(await screen.findByRole('article', { current: true })).toHaveAttribute('data-post-id', '2');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('data-post-id'))).toEqual(['2']);
    expect(screen.queryByText('🌙 Нет видео для сна')).not.toBeInTheDocument();
    unmount();

    serveFeed([postOf({ id: 1, ai_tags: ['city'] })]);
    renderFeed();
    expect(await screen.findByText('🌙 Нет видео для сна')).toBeInTheDocument();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('restores the remembered post when the feed first fills', async () => {
    localStorage.setItem('media_currentPostId', '12');
    serveFeed([postOf({ id: 11 }), postOf({ id: 12 }), postOf({ id: 13 })]);
    renderFeed();
    const current = await screen.findByRole('article', { current: true });
    expect(current).toHaveAttribute('data-post-id', '12');
  });

  it('starts at the top when the remembered post is gone', async () => {
    localStorage.setItem('media_currentPostId', '99');
    serveFeed([postOf({ id: 11 }), postOf({ id: 12 })]);
    renderFeed();
    expect(await screen.findByRole('article', { current: true })).toHaveAttribute('data-post-id', '11');
  });
});
