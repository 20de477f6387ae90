import type { ChatsResponse } from '@kadr/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse, me, messageOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import type { Conversation } from '../api/conversation-cache.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import { useChatSelection } from './use-chat-selection.ts';
import { useUrlChat } from './use-url-chat.ts';

const chat = chatOf({ unread_count: 3 });

afterEach(() => vi.unstubAllGlobals());

describe('a chat switch', () => {
  it('requests the conversation on select, clears the unread count at once and sends the receipt after the conversation answers', async () => {
    let answerConversation: (response: Response) => void = () => undefined;
    const { queryClient, wrapper, urls } = stubbedApp((url) =>
      url.includes('/messages/conversation')
        ? new Promise<Response>((resolve) => {
            answerConversation = resolve;
          })
        : Promise.resolve(jsonResponse({ ok: true })),
    );
    queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), { chats: [chat] });
    const { result } = renderHook(() => useChatSelection(me), { wrapper });

    act(() => {
      expect(result.current.select(chat)).toBe(true);
    });
    // The request leaves in the next task (a read is started in a task of its own), before anything renders.
    await waitFor(() => expect(urls()).toHaveLength(1));
    expect(urls()[0]).toContain('/messages/conversation?other_user_id=9');
    expect(queryClient.getQueryData<ChatsResponse>(messengerKeys.chats())?.chats[0]?.unread_count).toBe(0);

    const unread = [messageOf(1, 9, { is_read: false }), messageOf(2, me.id, { is_read: false })];
    answerConversation(jsonResponse({ messages: unread, has_more: false }));
    await waitFor(() => expect(urls()).toHaveLength(2));
    expect(urls()[1]).toContain('/messages/read');
    // The history the receipt covers is read in the cache: the window's own "incoming unread" effect finds
    // nothing and sends no second receipt.
    const conversation = queryClient.getQueryData<Conversation>(messengerKeys.conversation(9));
    expect(conversation?.messages.map((m) => [m.id, m.is_read])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("a conversation the page's first requests already loaded is read in the cache before the receipt: one receipt, not two", async () => {
    const { queryClient, wrapper, urls } = stubbedApp(async () => jsonResponse({ ok: true }));
    queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), { chats: [chat] });
    // As the boot script's answer lands: fresh, so selecting does not request it again.
    queryClient.setQueryData<Conversation>(messengerKeys.conversation(9), {
      messages: [messageOf(1, 9, { is_read: false })],
      has_more: false,
    });
    const { result } = renderHook(() => useChatSelection(me), { wrapper });
    act(() => {
      expect(result.current.select(chat)).toBe(true);
    });
    await waitFor(() => expect(urls()).toHaveLength(1));
    expect(urls()[0]).toContain('/messages/read');
    expect(
      queryClient.getQueryData<Conversation>(messengerKeys.conversation(9))?.messages.map((m) => m.is_read),
    ).toEqual([true]);
  });

  it('a group with unread messages clears its count and leaves the receipt to its window: no personal read receipt', async () => {
    const group = chatOf({ type: 'group', user_id: 4, unread_count: 2, profile_username: undefined });
    const { queryClient, wrapper, urls } = stubbedApp(async () => jsonResponse({ ok: true }));
    queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), { chats: [group] });
    const { result } = renderHook(() => useChatSelection(me), { wrapper });
    act(() => {
      expect(result.current.select(group)).toBe(true);
    });
    expect(queryClient.getQueryData<ChatsResponse>(messengerKeys.chats())?.chats[0]?.unread_count).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // `POST /messages/read` takes a person's id: a group's there was refused (400).
    expect(urls()).toEqual([]);
  });

  it('opens a chat named by the URL from the list, without a profile request', async () => {
    const { wrapper, urls } = stubbedApp(async () => jsonResponse({}, 500));
    const open = vi.fn();
    renderHook(() => useUrlChat('boris', me, [chat], open), { wrapper });
    await waitFor(() => expect(open).toHaveBeenCalledWith(chat, false));
    expect(open).toHaveBeenCalledTimes(1);
    expect(urls().filter((url) => url.includes('/profile/'))).toEqual([]);
  });
});
