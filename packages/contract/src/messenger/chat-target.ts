import type { ChatRef, ChatTarget } from './schemas.ts';

/**
 * The one way to name a chat in a chat action (pin, unpin, delete, forward, mute): by its kind and id.
 * A chat row's `user_id` is the peer for a personal chat but the group's or channel's own id for a room,
 * and those ids come from different sequences, so a room sent as `chat_user_id` names whoever has that
 * user id (the bug this replaces: pinning group 4 pinned — or created — the personal chat with user 4).
 * Schema-free: the browser imports it.
 */
export function chatTargetOf(ref: Pick<ChatRef, 'type' | 'user_id' | 'is_favorites'>): ChatTarget {
  if (ref.is_favorites) return { is_favorites: true };
  switch (ref.type) {
    case 'personal':
      return { chat_user_id: ref.user_id };
    case 'group':
      return { group_id: ref.user_id };
    case 'channel':
      return { channel_id: ref.user_id };
  }
}
