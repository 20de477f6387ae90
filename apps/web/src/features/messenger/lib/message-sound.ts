import type { ChatMute, ChatRef, Message } from '@kadr/contract';

export interface IncomingMessage {
  chat: ChatRef;
  message: Pick<Message, 'sender_id' | 'message_type'>;
  ownId: number;
  /** The chat on screen (`peerIdOf` form: a peer's id, or minus a group's or channel's id). */
  openPeerId: number | null;
  /** The user's "message sounds" setting. */
  soundsOn: boolean;
  mutes: readonly ChatMute[];
  now: number;
}

/** Whether the user muted this chat (for a while or until unmuted). */
export function isChatMuted(mutes: readonly ChatMute[], chat: ChatRef, now: number): boolean {
  return mutes.some(({ chat: target, muted_until }) => {
    const same =
      chat.type === 'personal'
        ? 'chat_user_id' in target && target.chat_user_id === chat.user_id
        : chat.type === 'group'
          ? 'group_id' in target && target.group_id === chat.user_id
          : 'channel_id' in target && target.channel_id === chat.user_id;
    return same && (muted_until === null || Date.parse(muted_until) > now);
  });
}

/**
 * Whether an incoming message plays the message sound: with sounds on, for someone else's message in a chat
 * that is not on screen and not muted. Favorites are one's own; a call has its own ringtone.
 */
export function shouldPlayMessageSound(m: IncomingMessage): boolean {
  if (!m.soundsOn || m.chat.is_favorites || m.message.sender_id === m.ownId) return false;
  if (m.message.message_type === 'call') return false;
  const peerId = m.chat.type === 'personal' ? m.chat.user_id : -m.chat.user_id;
  if (m.openPeerId === peerId) return false;
  return !isChatMuted(m.mutes, m.chat, m.now);
}

/**
 * Whether an incoming message shows the in-app banner: someone else's message (not a call's or a service
 * line) in a chat that is not on screen and not muted — whatever the sound setting says.
 */
export function shouldShowBanner(m: Omit<IncomingMessage, 'soundsOn'>): boolean {
  if (m.chat.is_favorites || m.message.sender_id === m.ownId) return false;
  if (m.message.message_type === 'call' || m.message.message_type === 'service') return false;
  const peerId = m.chat.type === 'personal' ? m.chat.user_id : -m.chat.user_id;
  if (m.openPeerId === peerId) return false;
  return !isChatMuted(m.mutes, m.chat, m.now);
}
