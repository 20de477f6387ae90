import type { Message } from '@kadr/contract';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { chatOf, jsonResponse, me, messageOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { ChatWindow } from '../components/ChatWindow.tsx';
import type { Conversation } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';
import { attachMessengerRealtime } from './messenger-realtime.ts';

const BORIS = 9;
const VERA = 11;
const GROUP_KEY = -5;

const message = (id: number, senderId: number, content: string): Message =>
  messageOf(id, senderId, {
    content,
    created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
    is_read: true,
    is_delivered: true,
  });

/** A socket stand-in that lets the test raise server events. */
function fakeSocket() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = {
    on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, fn),
    off: vi.fn(),
    emit: vi.fn(),
  };
  return {
    socket: socket as unknown as KadrSocket,
    raise: (event: string, payload: unknown) => handlers.get(event)?.(payload),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('a suspension heard on the socket', () => {
  it('drops the person’s messages from the open chat and from other cached chats at once, and brings them back when lifted', async () => {
    const history = [message(1, BORIS, 'Купите подписку'), message(2, me.id, 'Нет, спасибо')];
    let served = history;
    const { wrapper, queryClient, urls } = stubbedApp((url) =>
      url.includes('/messages/')
        ? jsonResponse({ messages: served, has_more: false })
        : jsonResponse({ chats: [] }),
    );
    // A group chat opened earlier, still cached: Boris and Vera wrote there.
    queryClient.setQueryData<Conversation>(messengerKeys.conversation(GROUP_KEY), {
      messages: [message(3, VERA, 'Всем привет'), message(4, BORIS, 'Скидки тут')],
      has_more: false,
    });
    const { socket, raise } = fakeSocket();
    const detach = attachMessengerRealtime(socket, queryClient, () => me.id);
    render(
      <ChatWindow
        chat={chatOf()}
        me={me}
        chats={[chatOf()]}
        showBack={false}
        onClose={vi.fn()}
        onReady={vi.fn()}
      />,
      { wrapper },
    );
    expect(await screen.findByText('Купите подписку')).toBeInTheDocument();

    // Someone else's suspension changes nothing here.
    raise('user-suspension-changed', { user_id: 42, suspended: true });
    expect(screen.getByText('Купите подписку')).toBeInTheDocument();

    const fetchesBefore = urls().length;
    served = history.filter((m) => m.sender_id !== BORIS);
    raise('user-suspension-changed', { user_id: BORIS, suspended: true });
    await waitFor(() => expect(screen.queryByText('Купите подписку')).not.toBeInTheDocument());
    expect(screen.getByText('Нет, спасибо')).toBeInTheDocument();
    // Dropped from the cache itself, not by a refetch of the open chat.
    expect(
      urls()
        .slice(fetchesBefore)
        .some((u) => u.includes('/messages/')),
    ).toBe(false);
    const group = queryClient.getQueryData<Conversation>(messengerKeys.conversation(GROUP_KEY));
    expect(group?.messages.map((m) => m.content)).toEqual(['Всем привет']);

    // Lifted: the open chat fetches its history again and shows Boris's message where it stood.
    served = history;
    raise('user-suspension-changed', { user_id: BORIS, suspended: false });
    expect(await screen.findByText('Купите подписку')).toBeInTheDocument();
    detach();
  });
});
