import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { CommentsPanel } from './CommentsPanel.tsx';

const comment = {
  id: 1,
  post_id: 5,
  comment_text: 'Привет',
  created_at: '2025-01-01T00:00:00.000Z',
  user: { id: 7, username: 'anna', name: 'Анна', avatar_url: null },
};

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CommentsPanel postId={5} onClose={() => {}} />
    </QueryClientProvider>,
  );
}

describe('CommentsPanel', () => {
  beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
  afterEach(() => vi.unstubAllGlobals());

  it('says when there are none and sends a trimmed comment', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ comments: [] }))
      .mockResolvedValueOnce(jsonResponse(comment, 201));
    vi.stubGlobal('fetch', fetch);
    renderPanel();
    expect(await screen.findByText('Пока нет комментариев')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Отправить' });
    await userEvent.type(screen.getByLabelText('Добавьте комментарий...'), '   ');
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Добавьте комментарий...'), 'Привет  ');
    await userEvent.click(send);
    expect(await screen.findByText('Привет')).toBeInTheDocument();
    expect(fetch.mock.calls[1]?.[0]).toBe('/api/v1/media/post/5/comment');
    expect(JSON.parse(fetch.mock.calls[1]?.[1].body)).toEqual({ comment_text: 'Привет' });
    expect(screen.getByLabelText('Добавьте комментарий...')).toHaveValue('');
  });

  it('alerts when sending fails and keeps the text', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(jsonResponse({ comments: [] }))
        .mockResolvedValueOnce(jsonResponse({ error: 'x', code: 'internal' }, 500)),
    );
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderPanel();
    await screen.findByText('Пока нет комментариев');
    await userEvent.type(screen.getByLabelText('Добавьте комментарий...'), 'Текст');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить' }));
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('Не удалось отправить комментарий'));
    expect(screen.getByLabelText('Добавьте комментарий...')).toHaveValue('Текст');
  });
});
