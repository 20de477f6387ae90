import type { ChatsResponse } from '@kadr/contract';
import { messengerEndpoints as m } from '@kadr/contract/messenger/endpoints';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { messengerKeys } from './messenger-keys.ts';

const totalUnread = (data: ChatsResponse) =>
  data.chats.reduce((sum, chat) => sum + (chat.is_favorites ? 0 : chat.unread_count), 0);

/**
 * Unread messages over every chat, for the messenger's entry in the navigation. It reads the messenger's own
 * chat-list cache (the same key and answer), which the app-wide socket handlers keep live, so the number
 * moves with every new message and read receipt without loading the messenger's code.
 */
export function useUnreadTotal(enabled: boolean): number {
  const query = useQuery({
    queryKey: messengerKeys.chats(),
    // Not aborted when its components go (no signal): the list is shared with the messenger, and a badge
    // re-rendered elsewhere while it loads would otherwise ask for it a second time.
    queryFn: () => api.call(m.chats),
    enabled,
    staleTime: 30_000,
    select: totalUnread,
  });
  return query.data ?? 0;
}
