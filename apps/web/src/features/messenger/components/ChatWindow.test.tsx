import type { ChatsResponse, Message } from '@kadr/contract';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse, me, messageOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { useReportUi } from '../../moderation/report-store.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import { useLoadOlder } from '../api/messenger-queries.ts';
import { useChatSelection } from '../hooks/use-chat-selection.ts';
import { ChatWindow } from './ChatWindow.tsx';

const chat = chatOf();

const message = (id: number, content = `m${id}`): Message =>
  messageOf(id, 9, {
    content,
    created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
    is_read: true,
    is_delivered: true,
  });

afterEach(() => vi.unstubAllGlobals());

describe('ChatWindow', () => {
  it('reports the peer of a personal chat from the chat menu', async () => {
    const { wrapper } = stubbedApp(() => jsonResponse({ messages: [message(1)], has_more: false }));
    render(
      <ChatWindow chat={chat} me={me} chats={[chat]} showBack={false} onClose={vi.fn()} onReady={vi.fn()} />,
      { wrapper },
    );
    (await screen.findByRole('button', { name: 'Действия с чатом' })).click();
    (await screen.findByRole('menuitem', { name: 'Пожаловаться' })).click();
    expect(useReportUi.getState().target).toMatchObject({ kind: 'user', targetId: 9 });
    useReportUi.getState().close();
  });

  it('shows Ошибка загрузки сообщений when the history fails to load', async () => {
    const { wrapper } = stubbedApp(() => jsonResponse({ error: 'x', code: 'internal' }, 500));
    render(
      <ChatWindow chat={chat} me={me} chats={[chat]} showBack={false} onClose={vi.fn()} onReady={vi.fn()} />,
      {
        wrapper,
      },
    );
    expect(await screen.findByText('Ошибка загрузки сообщений')).toBeInTheDocument();
  });

  it('disables the input with Чат недоступен when the chat is forbidden', async () => {
    const { wrapper } = stubbedApp(() => jsonResponse({ error: 'Чат недоступен', code: 'forbidden' }, 403));
    render(
      <ChatWindow chat={chat} me={me} chats={[chat]} showBack={false} onClose={vi.fn()} onReady={vi.fn()} />,
      {
        wrapper,
      },
    );
    const input = await screen.findByPlaceholderText('Чат недоступен');
    expect(input).toBeDisabled();
  });

  it('renders the history with Начало переписки and a preview card for a linked post', async () => {
    const post = {
      id: 5,
      caption: 'Закат над морем',
      files: [],
      user: { username: 'author', name: 'Автор', avatar_url: null, avatar_thumbnail_url: null },
      ai_description: '',
    };
    const { wrapper } = stubbedApp((url) =>
      url.includes('/media/post/5')
        ? jsonResponse({ post })
        : jsonResponse({
            messages: [message(1, 'привет'), message(2, 'глянь /media/post/5')],
            has_more: false,
          }),
    );
    const onReady = vi.fn();
    render(
      <ChatWindow chat={chat} me={me} chats={[chat]} showBack={false} onClose={vi.fn()} onReady={onReady} />,
      {
        wrapper,
      },
    );
    expect(await screen.findByText('Начало переписки')).toBeInTheDocument();
    expect(screen.getByText('привет')).toBeInTheDocument();
    const card = await screen.findByTestId('post-preview');
    expect(card).toHaveTextContent('@author');
    expect(card).toHaveTextContent('Закат над морем');
    expect(card).toHaveAttribute('href', '/media/post/5');
    expect(onReady).toHaveBeenCalled();
  });
});

describe('read receipts', () => {
  // The window gets the chat as the list holds it once the selection cleared its unread count, or — as
  // MessengerView renders it, from a deferred copy of the list — still counting the unread until that copy's
  // render, although the selection has already cleared them in the cache and read them.
  it.each([
    ['as the list now holds it', 0],
    ['from the list’s deferred copy, which still counts the unread', 2],
  ])('sends one receipt when a chat with unread messages opens, rendered %s', async (_, shownUnread) => {
    const unread = chatOf({ unread_count: 2 });
    const { wrapper, urls, queryClient } = stubbedApp((url) =>
      url.includes('/messages/conversation')
        ? jsonResponse({
            messages: [
              { ...message(1), is_read: false },
              { ...message(2), is_read: false },
            ],
            has_more: false,
          })
        : jsonResponse({ ok: true }),
    );
    queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), { chats: [unread] });
    const selection = renderHook(() => useChatSelection(me), { wrapper });
    act(() => {
      selection.result.current.select(unread);
    });
    render(
      <ChatWindow
        chat={{ ...unread, unread_count: shownUnread }}
        me={me}
        chats={[unread]}
        showBack={false}
        onClose={vi.fn()}
        onReady={vi.fn()}
      />,
      { wrapper },
    );
    expect(await screen.findByText('m2')).toBeInTheDocument();
    const receipts = () => urls().filter((url) => url.includes('/messages/read'));
    await waitFor(() => expect(receipts()).toHaveLength(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(receipts()).toHaveLength(1);
    const cached = queryClient.getQueryData<{ messages: Message[] }>(messengerKeys.conversation(9));
    expect(cached?.messages.map((m) => m.is_read)).toEqual([true, true]);
  });
});

describe('older history', () => {
  it('loads 20 older messages at an offset equal to the count loaded and puts them first', async () => {
    const older = Array.from({ length: 20 }, (_, i) => message(i + 1));
    const { fetchMock, queryClient, wrapper } = stubbedApp(() =>
      jsonResponse({ messages: older, has_more: true }),
    );
    const held = Array.from({ length: 30 }, (_, i) => message(i + 21));
    queryClient.setQueryData(messengerKeys.conversation(9), { messages: held, has_more: true });
    const { result } = renderHook(() => useLoadOlder(9), { wrapper });
    await act(() => result.current.loadOlder());
    const url = String(fetchMock.mock.calls[0]?.[0]);
    expect(url).toContain('other_user_id=9');
    expect(url).toContain('limit=20');
    expect(url).toContain('offset=30');
    const data = queryClient.getQueryData<{ messages: Message[] }>(messengerKeys.conversation(9));
    expect(data?.messages.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
