import type { ChatListItem, ChatsResponse, Message } from '@kadr/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchChatsAfterWrite, writeMessage } from './cache-writes.ts';
import { messengerKeys } from './messenger-keys.ts';

const ME = 1;
const PEER = 2;
const chat = (unread_count: number): ChatListItem => ({
  type: 'personal',
  user_id: PEER,
  username: 'Алиса',
  avatar_url: null,
  avatar_thumbnail_url: null,
  is_favorites: false,
  is_pinned: false,
  pin_order: null,
  unread_count,
  last_message: null,
  last_time: '2025-01-01T00:00:00.000Z',
  last_seen: null,
});
const incoming = { id: 7, sender_id: PEER, content: 'Ты тут?', files: [] } as unknown as Message;

/** A fetch the test answers by hand, to hold it in flight while an event arrives. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('socket writes during a chat-list fetch in flight', () => {
  it("keep the event: the fetch that started before it is replaced by one that includes it (the unread total doesn't fall back)", async () => {
    const queryClient = new QueryClient();
    const answers = [deferred<ChatsResponse>(), deferred<ChatsResponse>()];
    let calls = 0;
    // The navigation's unread total keeps this query observed in the app.
    const observer = new QueryObserver(queryClient, {
      queryKey: messengerKeys.chats(),
      queryFn: () => answers[calls++]?.promise ?? Promise.reject(new Error('no more answers')),
    });
    const unsubscribe = observer.subscribe(() => {});
    answers[0]?.resolve({ chats: [chat(1)] });
    await expect
      .poll(() => queryClient.getQueryData<ChatsResponse>(messengerKeys.chats())?.chats[0]?.unread_count)
      .toBe(1);

    // The socket connects: the list is refetched; before its answer, the next message arrives.
    answers.push(deferred<ChatsResponse>());
    void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
    expect(calls).toBe(2);
    writeMessage(queryClient, { type: 'personal', user_id: PEER, is_favorites: false }, incoming, ME, null);
    expect(queryClient.getQueryData<ChatsResponse>(messengerKeys.chats())?.chats[0]?.unread_count).toBe(2);

    // The refetch that started before the message answers with what the server had then (1)...
    answers[1]?.resolve({ chats: [chat(1)] });
    // ...but it was replaced by a fetch that started after the event, whose answer counts it.
    expect(calls).toBe(3);
    answers[2]?.resolve({ chats: [chat(2)] });
    await expect.poll(() => queryClient.isFetching()).toBe(0);
    expect(queryClient.getQueryData<ChatsResponse>(messengerKeys.chats())?.chats[0]?.unread_count).toBe(2);
    unsubscribe();
  });
});

describe('the chat list after a write that adds a chat', () => {
  it('is fetched anew although no one shows it, dropping the read in flight from before the write', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const before = deferred<ChatsResponse>();
    const empty: ChatsResponse = { chats: [] };
    const joined: ChatsResponse = { chats: [chat(0)] };
    const answers = [Promise.resolve(empty), before.promise, Promise.resolve(joined)];
    const queryFn = () => answers.shift() ?? Promise.reject(new Error('asked too often'));
    // The list was shown once (empty) and is read again (a socket notice), with no screen showing it now.
    await queryClient.fetchQuery({ queryKey: messengerKeys.chats(), queryFn });
    const inFlight = queryClient.fetchQuery({ queryKey: messengerKeys.chats(), queryFn, staleTime: 0 });
    inFlight.catch(() => null);
    await refetchChatsAfterWrite(queryClient);
    before.resolve(empty);
    await inFlight.catch(() => null);
    const list = queryClient.getQueryData<ChatsResponse>(messengerKeys.chats());
    expect(list?.chats).toHaveLength(1);
  });
});
