import type { UserSuspensionChangedEvent } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { Conversation } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';

/** Leaves out every message of one sender (a suspended person's, hidden while the suspension lasts). */
function removeMessagesFrom(conversation: Conversation, senderId: number): Conversation {
  const messages = conversation.messages.filter((m) => m.sender_id !== senderId);
  return messages.length === conversation.messages.length ? conversation : { ...conversation, messages };
}

/**
 * A person was suspended: their messages leave every open chat at once (the server leaves them out of
 * every read while it lasts); lifted: the chats fetch them back. The chat list (previews, pinned bars,
 * unread counts) and shared media are fetched again either way. Loaded on the first such event (rare),
 * not with the app's first scripts.
 */
export function writeSuspensionChanged(queryClient: QueryClient, event: UserSuspensionChangedEvent): void {
  if (event.suspended)
    queryClient.setQueriesData<Conversation>({ queryKey: messengerKeys.conversations() }, (current) =>
      current ? removeMessagesFrom(current, event.user_id) : current,
    );
  else void queryClient.invalidateQueries({ queryKey: messengerKeys.conversations() });
  void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
  void queryClient.invalidateQueries({ queryKey: [...messengerKeys.all, 'chat-media'] });
}
