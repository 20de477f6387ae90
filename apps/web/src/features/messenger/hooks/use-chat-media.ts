import type { ChatType, Post } from '@kadr/contract';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '../../../shared/api/client.ts';
import { messengerApi } from '../api/messenger-api.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import { scanChatMedia } from '../lib/chat-media-scan.ts';

/** Navigation state that opens the media feed in chat mode (spec §2.4). */
export interface ChatMediaState {
  fromChat: true;
  /** The peer's user id for a personal chat (own id for favorites), or the group id. */
  chatId: number;
  chatType: ChatType;
  chatName: string;
}

export function isChatMediaState(state: unknown): state is ChatMediaState {
  if (typeof state !== 'object' || state === null) return false;
  const s = state as Partial<ChatMediaState>;
  return s.fromChat === true && typeof s.chatId === 'number' && typeof s.chatName === 'string';
}

export async function loadChatMedia(peerId: number, signal?: AbortSignal): Promise<Post[]> {
  return scanChatMedia({
    page: (offset, limit) => messengerApi.conversation(peerId, limit, offset, signal),
    post: async (id) => {
      try {
        return (await messengerApi.post(id, signal)).post;
      } catch (error) {
        if (isApiError(error)) return null;
        throw error;
      }
    },
  });
}

/**
 * The posts linked in a chat, newest first, for the feed's chat mode. A load failure is logged
 * and gives an empty list (spec §8 "chat media load failure").
 */
export function useChatMediaPosts(state: ChatMediaState | null) {
  return useQuery({
    queryKey: messengerKeys.chatMedia(state?.chatId ?? 0),
    enabled: state !== null && state.chatType === 'personal',
    queryFn: async ({ signal }) => {
      try {
        return await loadChatMedia(state?.chatId ?? 0, signal);
      } catch (error) {
        console.error('chat media load failed', error);
        return [];
      }
    },
  });
}
