import type { Me, Message } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import type { OutboxEntry } from '../store/outbox.ts';

/** Spec §4.11 message status, from the sender's side. */
export type MessageStatus = 'pending' | 'failed' | 'sent' | 'delivered' | 'read';

export interface DisplayMessage {
  key: string;
  message: Message;
  /** Own messages only; null for incoming ones. */
  status: MessageStatus | null;
  /** Set while the server has not confirmed the message (temporary ids start with temp-). */
  tempId: string | null;
  /** A failed send: the server's reason, and whether sending again may succeed. */
  failure?: { error: string | null; retryable: boolean };
}

export function serverStatus(message: Pick<Message, 'is_read' | 'is_delivered'>): MessageStatus {
  if (message.is_read) return 'read';
  if (message.is_delivered) return 'delivered';
  return 'sent';
}

/** Editing: own, not temporary, under one hour old (spec §4.11, §6). */
export function canEdit(item: DisplayMessage, ownId: number, now: number = Date.now()): boolean {
  if (item.tempId !== null || item.message.sender_id !== ownId) return false;
  return now - Date.parse(item.message.created_at) < Limits.messageEditWindowMs;
}

function pendingMessage(
  entry: OutboxEntry,
  me: Pick<Me, 'id' | 'name' | 'username' | 'avatar_url'>,
): Message {
  return {
    id: -1,
    sender_id: me.id,
    sender_name: me.name,
    sender_avatar_url: me.avatar_url,
    sender_username: me.username,
    content: entry.content,
    created_at: entry.created_at,
    is_read: false,
    is_delivered: false,
    is_edited: false,
    edited_at: null,
    is_forwarded: false,
    forwarded_from_username: null,
    files: entry.files,
    message_type: entry.files.length > 0 ? 'media' : 'text',
    temp_id: entry.temp_id,
  };
}

/**
 * The conversation as shown: the server's messages and the outbox entries of this chat that the server
 * has not confirmed yet (pending or failed), in time order — a message that failed an hour ago stays an
 * hour up, never below what came after it.
 */
export function displayMessages(
  messages: readonly Message[],
  outbox: readonly OutboxEntry[],
  peerId: number,
  me: Pick<Me, 'id' | 'name' | 'username' | 'avatar_url'>,
): DisplayMessage[] {
  const confirmed = new Set(messages.map((m) => m.temp_id).filter((t): t is string => t !== undefined));
  const shown: DisplayMessage[] = messages.map((message) => ({
    key: `m${message.id}`,
    message,
    status: message.sender_id === me.id ? serverStatus(message) : null,
    tempId: null,
  }));
  const waiting: DisplayMessage[] = [];
  for (const entry of outbox) {
    if (entry.owner_id !== me.id || entry.other_user_id !== peerId || confirmed.has(entry.temp_id)) continue;
    waiting.push({
      key: entry.temp_id,
      message: pendingMessage(entry, me),
      status: entry.state === 'failed' ? 'failed' : 'pending',
      tempId: entry.temp_id,
      ...(entry.state === 'failed'
        ? { failure: { error: entry.error ?? null, retryable: entry.retryable !== false } }
        : {}),
    });
  }
  if (waiting.length === 0) return shown;
  // Both lists are in time order already: merge them (an entry goes before the first newer message).
  const merged: DisplayMessage[] = [];
  let i = 0;
  for (const item of waiting) {
    while (i < shown.length && (shown[i] as DisplayMessage).message.created_at <= item.message.created_at)
      merged.push(shown[i++] as DisplayMessage);
    merged.push(item);
  }
  while (i < shown.length) merged.push(shown[i++] as DisplayMessage);
  return merged;
}

/** Own messages in favorites have no recipient: no receipt marks, only pending and failed. */
export const favoritesStatus = (status: MessageStatus | null): MessageStatus | null =>
  status === 'pending' || status === 'failed' ? status : null;
