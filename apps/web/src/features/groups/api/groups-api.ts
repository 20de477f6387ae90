import type { ChatListItem, ChatRef, ConversationResponse, Message } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { peerIdOf } from '../../messenger/api/cache-writes.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';

export const groupsKeys = {
  all: ['groups'] as const,
  group: (id: number) => [...groupsKeys.all, 'group', id] as const,
  members: (id: number) => [...groupsKeys.all, 'members', id] as const,
  channel: (id: number) => [...groupsKeys.all, 'channel', id] as const,
  invite: (token: string) => [...groupsKeys.all, 'invite', token] as const,
  slug: (slug: string) => [...groupsKeys.all, 'slug', slug] as const,
  subscribers: (id: number) => [...groupsKeys.all, 'subscribers', id] as const,
  admins: (id: number) => [...groupsKeys.all, 'admins', id] as const,
  userSearch: (q: string) => [...groupsKeys.all, 'user-search', q] as const,
};

export type RoomKind = 'group' | 'channel';

export const roomRef = (kind: RoomKind, id: number): ChatRef => ({
  type: kind,
  user_id: id,
  is_favorites: false,
});

/** The conversation cache key of a group or channel (the messenger's writers use the same). */
export const roomKey = (kind: RoomKind, id: number) =>
  messengerKeys.conversation(peerIdOf(roomRef(kind, id), 0));

export async function fetchRoomPage(
  kind: RoomKind,
  id: number,
  limit: number,
  offset: number,
  signal?: AbortSignal,
): Promise<ConversationResponse> {
  if (kind === 'channel')
    return api.call(channelsEndpoints.posts, { params: { id }, query: { limit, offset }, signal });
  const messages: Message[] = await api.call(groupsEndpoints.messages, {
    params: { id },
    query: { limit, offset },
    signal,
  });
  return { messages, has_more: messages.length === limit };
}

/** The first page of a group's or channel's history: 30 messages (older ones come 20 at a time). */
export const roomMessagesOptions = (kind: RoomKind, id: number) =>
  queryOptions({
    queryKey: roomKey(kind, id),
    queryFn: ({ signal }) => fetchRoomPage(kind, id, Limits.messagesInitial, 0, signal),
    retry: false,
  });

/** History of a group or channel: 30 first, then 20 at an offset equal to the count loaded. */
export function useRoomMessages(kind: RoomKind, id: number) {
  return useQuery(roomMessagesOptions(kind, id));
}

export function useLoadOlderRoom(kind: RoomKind, id: number) {
  const queryClient = useQueryClient();
  return async (): Promise<boolean> => {
    const current = queryClient.getQueryData<ConversationResponse>(roomKey(kind, id));
    if (!current?.has_more) return false;
    const page = await fetchRoomPage(kind, id, Limits.messagesOlder, current.messages.length);
    queryClient.setQueryData<ConversationResponse>(roomKey(kind, id), (held) =>
      held
        ? {
            messages: [
              ...page.messages.filter((m) => !held.messages.some((h) => h.id === m.id)),
              ...held.messages,
            ],
            has_more: page.has_more,
          }
        : held,
    );
    return page.messages.length > 0;
  };
}

export function useGroup(id: number, enabled = true) {
  return useQuery({
    queryKey: groupsKeys.group(id),
    enabled,
    queryFn: ({ signal }) => api.call(groupsEndpoints.get, { params: { id }, signal }),
    retry: false,
  });
}

export function useGroupMembers(id: number, enabled: boolean) {
  return useQuery({
    queryKey: groupsKeys.members(id),
    enabled,
    queryFn: async ({ signal }) =>
      (await api.call(groupsEndpoints.members, { params: { id }, signal })).members,
  });
}

export function useChannel(id: number, enabled = true) {
  return useQuery({
    queryKey: groupsKeys.channel(id),
    enabled,
    queryFn: ({ signal }) => api.call(channelsEndpoints.get, { params: { id }, signal }),
    retry: false,
  });
}

const SUBSCRIBERS_PAGE = 50;

/** A channel's subscribers (admins only), 50 a page. */
export function useChannelSubscribers(id: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: groupsKeys.subscribers(id),
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.call(channelsEndpoints.subscribers, {
        params: { id },
        query: { limit: SUBSCRIBERS_PAGE, offset: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) =>
      last.has_more ? pages.reduce((n, p) => n + p.subscribers.length, 0) : undefined,
  });
}

export function useChannelAdmins(id: number, enabled: boolean) {
  return useQuery({
    queryKey: groupsKeys.admins(id),
    enabled,
    queryFn: async ({ signal }) =>
      (await api.call(channelsEndpoints.admins, { params: { id }, signal })).admins,
  });
}

/** People search for picking members and administrators; `q` is already debounced and trimmed. */
export function useUserSearch(q: string) {
  return useQuery({
    queryKey: groupsKeys.userSearch(q),
    enabled: q !== '',
    queryFn: ({ signal }) => api.call(profileEndpoints.search, { query: { q }, signal }),
  });
}

/** Marks the whole group or channel read and clears its unread badge. */
export async function markRoomRead(kind: RoomKind, id: number) {
  return kind === 'group'
    ? api.call(groupsEndpoints.read, { params: { id } })
    : api.call(channelsEndpoints.read, { params: { id } });
}

export const isRoom = (chat: Pick<ChatListItem, 'type'>): chat is ChatListItem & { type: RoomKind } =>
  chat.type === 'group' || chat.type === 'channel';
