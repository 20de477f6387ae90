import type { LiveChatMessage } from '@kadr/contract';
import { isRecord } from '../../../shared/lib/is-record.ts';

export const MAX_CHAT_SHOWN = 100;

/**
 * The chat as shown: each message once, whichever path it came by (socket, data channel, history), keyed
 * on sender and temp_id; at most the last 100.
 */
export function mergeChat(current: readonly LiveChatMessage[], incoming: readonly LiveChatMessage[]) {
  const seen = new Set(current.map(chatKey));
  const added = incoming.filter((m) => {
    const key = chatKey(m);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (added.length === 0) return current;
  return [...current, ...added].slice(-MAX_CHAT_SHOWN);
}

export const chatKey = (m: Pick<LiveChatMessage, 'sender_id' | 'temp_id'>) => `${m.sender_id}:${m.temp_id}`;

/** A data-channel message as a chat message, or null; the sender is the packet's identity, not its claim. */
export function chatFromData(
  data: unknown,
  identity: string | null,
  streamId: number,
): LiveChatMessage | null {
  if (!isRecord(data)) return null;
  const m = data;
  const sender = identity ? /^user-(\d+)$/.exec(identity) : null;
  if (!sender || m.type !== 'live-stream-message' || m.stream_id !== streamId) return null;
  if (typeof m.content !== 'string' || typeof m.temp_id !== 'string') return null;
  const content = m.content.trim();
  if (content.length === 0 || content.length > 500) return null;
  return {
    type: 'live-stream-message',
    stream_id: streamId,
    content,
    sender_id: Number(sender[1]),
    sender_name: typeof m.sender_name === 'string' ? m.sender_name : '',
    timestamp: typeof m.timestamp === 'string' ? m.timestamp : new Date().toISOString(),
    temp_id: m.temp_id,
  };
}

export const newTempId = () => `temp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
