import type {
  ChatListItem,
  ChatRef,
  ChatsResponse,
  LastMessage,
  Message,
  PinnedMessage,
} from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';

/** Whether a list item is the chat an event names. */
export function isChat(item: ChatListItem, ref: ChatRef): boolean {
  if (ref.is_favorites || item.is_favorites) return ref.is_favorites && item.is_favorites;
  return item.type === ref.type && item.user_id === ref.user_id;
}

export function toLastMessage(message: Message): LastMessage {
  return {
    content: message.content.slice(0, Limits.messagePreviewChars),
    sender_id: message.sender_id,
    sender_username: message.sender_username,
    is_read: message.is_read,
    is_delivered: message.is_delivered,
    created_at: message.created_at,
    message_type: message.message_type,
    ...(message.files?.[0] ? { file_type: message.files[0].file_type } : {}),
  };
}

export function updateChat(
  data: ChatsResponse,
  ref: ChatRef,
  update: (item: ChatListItem) => ChatListItem,
): ChatsResponse {
  let changed = false;
  const chats = data.chats.map((item) => {
    if (!isChat(item, ref)) return item;
    const next = update(item);
    // An update that changes nothing keeps the list's identity: no re-sort, no re-render.
    if (next !== item) changed = true;
    return next;
  });
  return changed ? { chats } : data;
}

/**
 * A new message moves into the chat's preview; an incoming one counts as unread unless that chat is
 * open right now. Returns null when the chat is not in the list yet (the list must be refetched).
 */
export function applyNewMessage(
  data: ChatsResponse,
  ref: ChatRef,
  message: Message,
  ownId: number,
  chatIsOpen: boolean,
): ChatsResponse | null {
  if (!data.chats.some((item) => isChat(item, ref))) return null;
  const incoming = message.sender_id !== ownId;
  return updateChat(data, ref, (item) => ({
    ...item,
    last_message: toLastMessage(message),
    last_time: message.created_at,
    unread_count: incoming && !chatIsOpen ? item.unread_count + 1 : item.unread_count,
  }));
}

/** The chat's unread count as the list holds it (0 when the chat is not in it). */
export function unreadOf(data: ChatsResponse | undefined, ref: ChatRef): number {
  return data?.chats.find((item) => isChat(item, ref))?.unread_count ?? 0;
}

export function clearUnread(data: ChatsResponse, ref: ChatRef): ChatsResponse {
  return updateChat(data, ref, (item) => (item.unread_count === 0 ? item : { ...item, unread_count: 0 }));
}

export function removeChat(data: ChatsResponse, ref: ChatRef): ChatsResponse {
  const chats = data.chats.filter((item) => !isChat(item, ref));
  return chats.length === data.chats.length ? data : { chats };
}

export function setPinned(data: ChatsResponse, ref: ChatRef, pinOrder: number | null): ChatsResponse {
  return updateChat(data, ref, (item) => ({ ...item, is_pinned: pinOrder !== null, pin_order: pinOrder }));
}

/** The receipt state of the chat's preview when it is an own message up to `upToId`. */
export function markPreview(data: ChatsResponse, ref: ChatRef, ownId: number, read: boolean): ChatsResponse {
  return updateChat(data, ref, (item) => {
    const last = item.last_message;
    if (!last || last.sender_id !== ownId) return item;
    return { ...item, last_message: { ...last, is_delivered: true, is_read: read || last.is_read } };
  });
}

/** The chat's pinned message changed (pinned, replaced or unpinned: null). */
export function setPinnedMessage(
  data: ChatsResponse,
  ref: ChatRef,
  pinned: PinnedMessage | null,
): ChatsResponse {
  return updateChat(data, ref, (item) => {
    if ((item.pinned_message?.id ?? null) === (pinned?.id ?? null)) return item;
    const { pinned_message: _old, ...rest } = item;
    return pinned ? { ...rest, pinned_message: pinned } : rest;
  });
}

export function chatRefOf(item: ChatListItem): ChatRef {
  return { type: item.type, user_id: item.user_id, is_favorites: item.is_favorites };
}
