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
  parent_id: null,
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

  it('draws the emoji of a comment as images', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValueOnce(jsonResponse({ comments: [{ ...comment, comment_text: 'Красота 😍' }] })),
    );
    renderPanel();
    expect(await screen.findByAltText('😍')).toHaveAttribute('src', '/emoji/1f60d.svg');
  });

  it('shows the failure in the panel (no alert()) and keeps the text', async () => {
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
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось отправить комментарий');
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Добавьте комментарий...')).toHaveValue('Текст');
  });

  it('replies to a comment: «Ответить» starts with the @username, sends parent_id, shows the reply under it', async () => {
    const reply = {
      ...comment,
      id: 2,
      comment_text: '@anna Согласен',
      user: { id: me.id, username: me.username, name: me.name, avatar_url: null },
      parent_id: 1,
    };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ comments: [comment] }))
      .mockResolvedValueOnce(jsonResponse(reply, 201));
    vi.stubGlobal('fetch', fetch);
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Ответить @anna' }));
    const input = screen.getByLabelText('Добавьте комментарий...');
    expect(input).toHaveValue('@anna ');
    expect(input).toHaveFocus();
    expect(screen.getByText('Ответ @anna')).toBeInTheDocument();
    await userEvent.type(input, 'Согласен');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('@anna Согласен')).toBeInTheDocument();
    expect(JSON.parse(fetch.mock.calls[1]?.[1].body)).toEqual({
      comment_text: '@anna Согласен',
      parent_id: 1,
    });
    expect(screen.getByText('в ответ @anna')).toBeInTheDocument();
    expect(screen.queryByText('Ответ @anna')).not.toBeInTheDocument();
  });

  it('a reply can be cancelled: the next comment is a plain one', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse({ comments: [comment] }))
      .mockResolvedValueOnce(jsonResponse({ ...comment, id: 3, comment_text: 'Просто так' }, 201));
    vi.stubGlobal('fetch', fetch);
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Ответить @anna' }));
    await userEvent.click(screen.getByRole('button', { name: 'Отменить ответ' }));
    expect(screen.queryByText('Ответ @anna')).not.toBeInTheDocument();
    const input = screen.getByLabelText('Добавьте комментарий...');
    await userEvent.clear(input);
    await userEvent.type(input, 'Просто так');
    await userEvent.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('Просто так')).toBeInTheDocument();
    expect(JSON.parse(fetch.mock.calls[1]?.[1].body)).toEqual({ comment_text: 'Просто так' });
  });

  it('shows when each comment was written', async () => {
    const recent = { ...comment, id: 4, created_at: new Date(Date.now() - 5 * 60_000).toISOString() };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(jsonResponse({ comments: [recent] })));
    renderPanel();
    const item = await screen.findByTestId('comment');
    const time = item.querySelector('time');
    expect(time).toHaveTextContent('5 мин');
    expect(time).toHaveAttribute('datetime', recent.created_at);
  });
});
