import type { ChatListItem, Message } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { chatOf } from '../../../test/fixtures.ts';
import { applyNewMessage, clearUnread, markPreview, removeChat, setPinned } from './chats-cache.ts';

const chat = (user_id: number, extra: Partial<ChatListItem> = {}) =>
  chatOf({ user_id, username: `u${user_id}`, profile_username: undefined, ...extra });
const ref = (user_id: number, is_favorites = false) => ({ type: 'personal' as const, user_id, is_favorites });
const msg = (sender_id: number, content = 'привет'): Message =>
  ({
    id: 1,
    sender_id,
    sender_username: `u${sender_id}`,
    content,
    created_at: '2025-02-01T00:00:00.000Z',
    is_read: false,
    is_delivered: false,
    message_type: 'text',
  }) as Message;

describe('chat list cache', () => {
  it('counts an incoming message as unread unless its chat is open; own messages never', () => {
    const data = { chats: [chat(2), chat(3)] };
    const incoming = applyNewMessage(data, ref(2), msg(2), 1, false);
    expect(incoming?.chats[0]).toMatchObject({ unread_count: 1, last_time: '2025-02-01T00:00:00.000Z' });
    expect(incoming?.chats[0]?.last_message?.content).toBe('привет');
    expect(applyNewMessage(data, ref(2), msg(2), 1, true)?.chats[0]?.unread_count).toBe(0);
    expect(applyNewMessage(data, ref(2), msg(1), 1, false)?.chats[0]?.unread_count).toBe(0);
    expect(applyNewMessage(data, ref(9), msg(9), 1, false)).toBeNull();
  });

  it('clears unread, pins, removes and marks the own preview read; favorites match only favorites', () => {
    const data = {
      chats: [chat(2, { unread_count: 4, last_message: msg(1) }), chat(1, { is_favorites: true })],
    };
    expect(clearUnread(data, ref(2)).chats[0]?.unread_count).toBe(0);
    expect(setPinned(data, ref(2), 3).chats[0]).toMatchObject({ is_pinned: true, pin_order: 3 });
    expect(setPinned(data, ref(2), null).chats[0]).toMatchObject({ is_pinned: false, pin_order: null });
    expect(markPreview(data, ref(2), 1, true).chats[0]?.last_message).toMatchObject({
      is_read: true,
      is_delivered: true,
    });
    expect(removeChat(data, ref(1, true)).chats.map((c) => c.user_id)).toEqual([2]);
    const read = clearUnread(data, ref(2));
    // Nothing to clear: the same list comes back, so a 5,000-chat list is not re-sorted.
    expect(clearUnread(read, ref(2))).toBe(read);
  });
});
