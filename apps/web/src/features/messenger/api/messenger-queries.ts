import type {
  ChatListItem,
  ChatRef,
  ChatsResponse,
  ChatTarget,
  DeleteScope,
  Me,
  Message,
} from '@kadr/contract';
import { chatTargetOf, Limits } from '@kadr/contract/browser';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { showToast } from '../../../shared/ui/toast.ts';
import { chatStrings } from '../components/strings.ts';
import { sortChats, withFavorites } from '../lib/chat-order.ts';
import { messengerStrings } from '../strings.ts';
import {
  peerIdOf,
  writeDeletedMessage,
  writeEditedMessage,
  writeMessage,
  writePin,
  writePinnedMessage,
  writeUnreadCleared,
} from './cache-writes.ts';
import { removeChat } from './chats-cache.ts';
import { type Conversation, mergeNewest, prependOlder } from './conversation-cache.ts';
import { messengerApi } from './messenger-api.ts';
import { messengerKeys } from './messenger-keys.ts';

export const MessengerStaleTime = { chats: 30_000, conversation: 30_000, post: 60_000 } as const;

export function favoritesChat(
  me: Pick<Me, 'id' | 'username' | 'avatar_url' | 'avatar_thumbnail_url'>,
): ChatListItem {
  return {
    type: 'personal',
    user_id: me.id,
    username: messengerStrings.favorites,
    profile_username: me.username,
    avatar_url: null,
    avatar_thumbnail_url: null,
    is_favorites: true,
    is_pinned: false,
    pin_order: null,
    unread_count: 0,
    last_message: null,
    last_time: new Date(0).toISOString(),
    last_seen: null,
  };
}

/** The chat list in display order, with favorites synthesised when the server sent none. */
export function useChatsQuery(me: Me | null) {
  // A stable select: TanStack re-runs it only when the data changes, not on every render, so a
  // 5,000-chat list is not re-sorted per chat switch.
  const meId = me?.id;
  const meUsername = me?.username;
  const select = useCallback(
    (data: ChatsResponse) =>
      meId !== undefined && meUsername !== undefined
        ? sortChats(
            withFavorites(data.chats, () =>
              favoritesChat({ id: meId, username: meUsername, avatar_url: null, avatar_thumbnail_url: null }),
            ),
          ).map((chat) =>
            // Saved messages read 'Избранное' whatever name the server gives them.
            chat.is_favorites ? { ...chat, username: messengerStrings.favorites } : chat,
          )
        : [],
    [meId, meUsername],
  );
  return useQuery({
    queryKey: messengerKeys.chats(),
    // No abort signal: the list is shared with the navigation's unread badge (unread-total.ts).
    queryFn: () => messengerApi.chats(),
    enabled: me !== null,
    staleTime: MessengerStaleTime.chats,
    select,
  });
}

/** A chat action names the chat by its kind and id (contract `chatTargetOf`), never a room as a user. */
export const chatTarget = (ref: ChatRef): ChatTarget => chatTargetOf(ref);

/**
 * Per query client, the conversations whose read receipt waits for the load in flight (a chat opened with
 * unread messages): the receipt covers every message that load returns, so they arrive read, and the chat
 * window neither sends a second receipt nor re-renders every bubble to mark them.
 */
const receiptAfterLoad = new WeakMap<QueryClient, Set<number>>();
const awaitingReceipt = (queryClient: QueryClient): Set<number> => {
  const known = receiptAfterLoad.get(queryClient);
  if (known) return known;
  const peers = new Set<number>();
  receiptAfterLoad.set(queryClient, peers);
  return peers;
};

/** A conversation's newest 30 messages; a refetch keeps the older ones already scrolled in. */
function conversationOptions(queryClient: QueryClient, peerId: number) {
  return queryOptions({
    queryKey: messengerKeys.conversation(peerId),
    staleTime: MessengerStaleTime.conversation,
    queryFn: async ({ signal }) => {
      const loaded = await messengerApi.conversation(peerId, Limits.messagesInitial, 0, signal);
      const fresh = awaitingReceipt(queryClient).has(peerId) ? readIncoming(loaded, peerId) : loaded;
      const previous = queryClient.getQueryData<Conversation>(messengerKeys.conversation(peerId));
      return mergeNewest(previous, fresh);
    },
  });
}

/** The conversation with every message from the peer marked read by us. */
function readIncoming<T extends Conversation>(conversation: T, peerId: number): T {
  if (!conversation.messages.some((m) => m.sender_id === peerId && !m.is_read)) return conversation;
  return {
    ...conversation,
    messages: conversation.messages.map((m) =>
      m.sender_id === peerId && !m.is_read ? { ...m, is_read: true } : m,
    ),
  };
}

export function useConversationQuery(peerId: number | null) {
  const queryClient = useQueryClient();
  return useQuery({ ...conversationOptions(queryClient, peerId ?? 0), enabled: peerId !== null });
}

/**
 * Starts loading a conversation that is about to open, unless it is cached and fresh: called on the
 * click, so the request runs while the chat window renders instead of after its first commit.
 */
export function usePrefetchConversation() {
  const queryClient = useQueryClient();
  return useCallback(
    (peerId: number): Promise<void> => queryClient.prefetchQuery(conversationOptions(queryClient, peerId)),
    [queryClient],
  );
}

/** Loads 20 older messages at an offset equal to the count loaded; one request at a time. */
export function useLoadOlder(peerId: number | null) {
  const queryClient = useQueryClient();
  const inFlight = useRef(false);
  const [loading, setLoading] = useState(false);
  const loadOlder = useCallback(async () => {
    if (peerId === null || inFlight.current) return;
    const key = messengerKeys.conversation(peerId);
    const current = queryClient.getQueryData<Conversation>(key);
    if (!current?.has_more) return;
    inFlight.current = true;
    setLoading(true);
    try {
      const page = await messengerApi.conversation(peerId, Limits.messagesOlder, current.messages.length);
      queryClient.setQueryData<Conversation>(key, (held) => (held ? prependOlder(held, page) : held));
    } catch {
      // The next scroll to the top tries again.
    } finally {
      inFlight.current = false;
      setLoading(false);
    }
  }, [peerId, queryClient]);
  return { loadOlder, loading };
}

export function useEditMessage(ref: ChatRef, ownId: number) {
  const queryClient = useQueryClient();
  const key = messengerKeys.conversation(peerIdOf(ref, ownId));
  return useMutation({
    mutationFn: ({ id, content }: { id: number; content: string }) => messengerApi.edit(id, content),
    onMutate: async ({ id, content }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Conversation>(key);
      queryClient.setQueryData<Conversation>(
        key,
        (c) =>
          c && {
            ...c,
            messages: c.messages.map((m) => (m.id === id ? { ...m, content, is_edited: true } : m)),
          },
      );
      return { previous };
    },
    onError: (_e, _v, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: ({ message }) => writeEditedMessage(queryClient, ref, message, ownId),
  });
}

export function useDeleteMessage(ref: ChatRef, ownId: number) {
  const queryClient = useQueryClient();
  const key = messengerKeys.conversation(peerIdOf(ref, ownId));
  return useMutation({
    mutationFn: ({ id, scope }: { id: number; scope: DeleteScope }) => messengerApi.remove(id, scope),
    onMutate: async ({ id }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Conversation>(key);
      writeDeletedMessage(queryClient, ref, id, ownId);
      return { previous };
    },
    onError: (_e, _v, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
  });
}

export function useForwardMessage(ownId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ message, targets }: { message: Message; targets: ChatRef[] }) =>
      messengerApi.forward([message.id], targets.map(chatTarget)),
    onSuccess: ({ messages }, { targets }) => {
      // One copy per target, in target order.
      messages.forEach((message, index) => {
        const ref = targets[index % targets.length];
        if (ref) writeMessage(queryClient, ref, message, ownId, null);
      });
    },
  });
}

/** Pins or unpins a message for the whole chat; the answer (and `message-pinned`) updates the bar. */
export function usePinMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, on }: { messageId: number; on: boolean }) =>
      on ? messengerApi.pinMessage(messageId) : messengerApi.unpinMessage(messageId),
    onSuccess: ({ chat, pinned_message }) => writePinnedMessage(queryClient, chat, pinned_message),
    onError: () => showToast(chatStrings.pinMessageFailed),
  });
}

/** Pin toggles (spec §4.11): a pinned chat is unpinned, an unpinned one pinned; failure alerts. */
export function useTogglePin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chat: ChatListItem) =>
      chat.is_pinned ? messengerApi.unpin(chatTarget(chat)) : messengerApi.pin(chatTarget(chat)),
    onSuccess: (result, chat) => writePin(queryClient, chat, result.is_pinned ? result.pin_order : null),
    onError: () => showToast(messengerStrings.pinFailed),
  });
}

/**
 * «Удалить чат» (personal) removes the chat and its history for oneself; for a group or channel the same
 * call clears its history for oneself («Очистить историю»), and the chat stays on the list (one leaves it
 * from its info panel).
 */
export function useDeleteChat(ownId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chat: ChatListItem) => messengerApi.deleteChat(chatTarget(chat)),
    onSuccess: (_r, chat) => {
      if (chat.type === 'personal')
        queryClient.setQueryData<ChatsResponse>(messengerKeys.chats(), (c) => (c ? removeChat(c, chat) : c));
      else void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
      queryClient.removeQueries({ queryKey: messengerKeys.conversation(peerIdOf(chat, ownId)) });
    },
  });
}

/** The chat was opened: clear its unread count at once, then tell the server (read receipts). */
/**
 * Clears the chat's unread state in the caches at once and sends the read receipt — after `after`
 * settles when given (the conversation's own request goes first on a switch: the server answers it
 * alone instead of alongside the receipt).
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useCallback(
    (ref: ChatRef, ownId: number, after?: Promise<unknown>) => {
      writeUnreadCleared(queryClient, ref);
      queryClient.setQueryData<Conversation>(messengerKeys.conversation(peerIdOf(ref, ownId)), (c) =>
        c?.messages.some((m) => m.sender_id !== ownId && !m.is_read)
          ? {
              ...c,
              messages: c.messages.map((m) =>
                m.sender_id !== ownId && !m.is_read ? { ...m, is_read: true } : m,
              ),
            }
          : c,
      );
      // A group's or channel's receipt is its window's (groups-api.ts, `POST /groups/{id}/read`): this
      // endpoint takes a person's id and refuses a room's.
      if (ref.type !== 'personal') return;
      const peerId = peerIdOf(ref, ownId);
      const send = () => void messengerApi.markRead(peerId).catch(() => undefined);
      if (!after) return send();
      const awaiting = awaitingReceipt(queryClient);
      awaiting.add(peerId);
      void after.finally(() => {
        awaiting.delete(peerId);
        send();
      });
    },
    [queryClient],
  );
}
