import type { MessageAttachment } from '@kadr/contract';
import { newTempId, type OutboxEntry } from '../store/outbox.ts';
import { splitMessage } from './split-message.ts';

/**
 * What one press of «Отправить» enqueues: a text over the limit goes as several messages in order, as
 * Telegram sends it; the attachments and the reply ride on the first. Each part is its own outbox entry
 * (its own temp_id), a millisecond apart so their order holds wherever they are sorted by time.
 */
export function outgoingEntries(
  base: Pick<OutboxEntry, 'owner_id' | 'other_user_id' | 'room'>,
  text: string,
  files: readonly MessageAttachment[],
  replyToId: number | null,
  now: number = Date.now(),
): Omit<OutboxEntry, 'state'>[] {
  const parts = splitMessage(text);
  if (parts.length === 0 && files.length > 0) parts.push('');
  return parts.map((content, index) => ({
    ...base,
    temp_id: newTempId(now + index),
    ...(index === 0 && replyToId !== null ? { reply_to_id: replyToId } : {}),
    content,
    attachment_ids: index === 0 ? files.map((f) => f.id) : [],
    files: index === 0 ? files.map(({ id: _id, ...file }) => file) : [],
    created_at: new Date(now + index).toISOString(),
  }));
}
