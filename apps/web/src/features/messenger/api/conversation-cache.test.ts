import type { Message } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../../test/fixtures.ts';
import {
  type Conversation,
  markOwnUpTo,
  mergeNewest,
  prependOlder,
  removeMessage,
  upsertMessage,
} from './conversation-cache.ts';

const message = (id: number, extra: Partial<Message> = {}): Message =>
  messageOf(id, 1, {
    sender_name: '',
    sender_username: '',
    content: `m${id}`,
    created_at: new Date(id * 1000).toISOString(),
    ...extra,
  });
const conv = (...ids: number[]): Conversation => ({ messages: ids.map((id) => message(id)), has_more: true });

describe('conversation cache', () => {
  it('keeps receipts when the send answer arrives after the delivery receipt', () => {
    let c = upsertMessage(conv(1), message(2, { temp_id: 'temp-x' }));
    c = markOwnUpTo(c, 1, 2, false);
    c = upsertMessage(c, message(2, { temp_id: 'temp-x' }));
    expect(c.messages.map((m) => [m.id, m.is_delivered])).toEqual([
      [1, true],
      [2, true],
    ]);
    c = markOwnUpTo(c, 1, 2, true);
    expect(upsertMessage(c, message(2, { content: 'изменено', is_edited: true })).messages[1]).toMatchObject({
      is_read: true,
      content: 'изменено',
    });
  });

  it('keeps receipts that came before the message itself (its send answered after them)', () => {
    // The chat holds message 1; the read receipt up to 3 arrives before message 3's own answer.
    let c = markOwnUpTo(conv(1), 1, 3, true);
    expect(c.messages[0]).toMatchObject({ is_delivered: true, is_read: true });
    c = upsertMessage(c, message(3, { temp_id: 'temp-late' }));
    expect(c.messages[1]).toMatchObject({ id: 3, is_delivered: true, is_read: true });
    // A later message of one's own is not covered; someone else's never is.
    c = upsertMessage(c, message(4));
    c = upsertMessage(c, message(2, { sender_id: 2 }));
    expect(c.messages.map((m) => [m.id, m.is_read])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ]);
    // A refetch answered with what the server had before the receipt keeps it.
    const refetched = mergeNewest(c, conv(3, 4));
    expect(refetched.messages.find((m) => m.id === 3)).toMatchObject({ is_read: true });
    // Nothing new heard: the same object (no re-render).
    expect(markOwnUpTo(c, 1, 3, true)).toBe(c);
  });

  it('inserts in time order, removes, prepends older pages once and keeps older on refetch', () => {
    expect(upsertMessage(conv(1, 3), message(2)).messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(removeMessage(conv(1, 2), 1).messages.map((m) => m.id)).toEqual([2]);
    const older = prependOlder(conv(3, 4), {
      messages: [message(1), message(2), message(3)],
      has_more: false,
    });
    expect(older.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(older.has_more).toBe(false);
    const merged = mergeNewest(conv(1, 2, 3, 4), {
      messages: [message(3), message(4), message(5)],
      has_more: true,
    });
    expect(merged.messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
  });
});
