import type { ChatRef, ChatsResponse, Message, PinnedMessage } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import {
  applyNewMessage,
  clearUnread,
  markPreview,
  removeChat,
  setPinned,
  setPinnedMessage,
} from './chats-cache.ts';
import { type Conversation, markOwnUpTo, removeMessage, upsertMessage } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';

/**
 * The conversation key of a chat: the peer id, or one's own id for favorites. A group or channel is
 * keyed by minus its chat id, so it never meets a user id (both are positive).
 */
export const peerIdOf = (ref: ChatRef, ownId: number): number =>
  ref.is_favorites ? ownId : ref.type === 'personal' ? ref.user_id : -ref.user_id;

export const personalRef = (peerId: number, ownId: number): ChatRef => ({
  type: 'personal',
  user_id: peerId,
  is_favorites: peerId === ownId,
});

/**
 * A socket event written while that query's fetch is still in flight would be overwritten when the fetch
 * answers with what the server had before the event (the chat list refetched on connect answered after a
 * new message's +1 and put the unread total back). Fetch again instead: invalidating cancels the fetch in
 * flight and starts one whose answer includes the event.
 */
function refetchIfInFlight(queryClient: QueryClient, queryKey: readonly unknown[]): void {
  if (queryClient.isFetching({ queryKey, exact: true }) > 0)
    void queryClient.invalidateQueries({ queryKey, exact: true });
}

/** Writes a new or confirmed message into its conversation and the chat list. */
export function writeMessage(
  queryClient: QueryClient,
  ref: ChatRef,
  message: Message,
  ownId: number,
  openPeerId: number | null,
): void {
  const peerId = peerIdOf(ref, ownId);
  queryClient.setQueryData<Conversation>(messengerKeys.conversation(peerId), (current) =>
    current ? upsertMessage(current, message) : current,
  );
  refetchIfInFlight(queryClient, messengerKeys.conversation(peerId));
  const chats = queryClient.getQueryData<ChatsResponse>(messengerKeys.chats());
  const next = chats ? applyNewMessage(chats, ref, message, ownId, openPeerId === peerId) : null;
  if (next) {
    queryClient.setQueryData(messengerKeys.chats(), next);
    refetchIfInFlight(queryClient, messengerKeys.chats());
  } else if (chats) void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
  else refetchIfInFlight(queryClient, messengerKeys.chats());
}

export function writeEditedMessage(
  queryClient: QueryClient,
  ref: ChatRef,
  message: Message,
  ownId: number,
): void {
  queryClient.setQueryData<Conversation>(messengerKeys.conversation(peerIdOf(ref, ownId)), (current) =>
    current?.messages.some((m) => m.id === message.id) ? upsertMessage(current, message) : current,
  );
  // The preview may show the edited text.
  void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
}

export function writeDeletedMessage(
  queryClient: QueryClient,
  ref: ChatRef,
  messageId: number,
  ownId: number,
): void {
  queryClient.setQueryData<Conversation>(messengerKeys.conversation(peerIdOf(ref, ownId)), (current) =>
    current ? removeMessage(current, messageId) : current,
  );
  void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
}

/** Delivery (`read` false) or read receipts for one's own messages up to an id. */
export function writeReceipt(
  queryClient: QueryClient,
  ref: ChatRef,
  upToId: number,
  ownId: number,
  read: boolean,
): void {
  queryClient.setQueryData<Conversation>(messengerKeys.conversation(peerIdOf(ref, ownId)), (current) =>
    current ? markOwnUpTo(current, ownId, upToId, read) : current,
  );
  queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (current) =>
    current ? markPreview(current, ref, ownId, read) : current,
  );
  refetchIfInFlight(queryClient, messengerKeys.chats());
}

export function writeUnreadCleared(queryClient: QueryClient, ref: ChatRef): void {
  queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (current) =>
    current ? clearUnread(current, ref) : current,
  );
  refetchIfInFlight(queryClient, messengerKeys.chats());
}

export function writePin(queryClient: QueryClient, ref: ChatRef, pinOrder: number | null): void {
  queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (current) =>
    current ? setPinned(current, ref, pinOrder) : current,
  );
  refetchIfInFlight(queryClient, messengerKeys.chats());
}

export function writeChatDeleted(queryClient: QueryClient, ref: ChatRef, ownId: number): void {
  queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (current) =>
    current ? removeChat(current, ref) : current,
  );
  queryClient.removeQueries({ queryKey: messengerKeys.conversation(peerIdOf(ref, ownId)) });
}

/** A message was pinned or unpinned in a chat (the bar at its top). */
export function writePinnedMessage(
  queryClient: QueryClient,
  ref: ChatRef,
  pinned: PinnedMessage | null,
): void {
  queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (current) =>
    current ? setPinnedMessage(current, ref, pinned) : current,
  );
  refetchIfInFlight(queryClient, messengerKeys.chats());
}

/**
 * After a write that adds a chat (a group created or joined, a channel subscribed): the chat list as the
 * server has it now, fetched before the caller opens the chat. Inactive lists are fetched too (the list is
 * not on screen while a preview is), and a read already in flight — started before the write, so without
 * the chat — is dropped for a new one instead of being taken as the answer.
 */
export function refetchChatsAfterWrite(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: messengerKeys.chats(), refetchType: 'all' });
}
