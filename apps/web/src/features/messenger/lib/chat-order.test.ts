import { describe, expect, it } from 'vitest';
import {
  CHAT_PREVIEW_MAX,
  chatKey,
  filterChats,
  type OrderableChat,
  sortChats,
  truncatePreview,
  withFavorites,
} from './chat-order.ts';

interface Chat extends OrderableChat {
  username: string;
}

const chat = (username: string, overrides: Partial<Chat> = {}): Chat => ({
  type: 'personal',
  user_id: username.length,
  username,
  is_favorites: false,
  is_pinned: false,
  pin_order: null,
  last_time: null,
  ...overrides,
});

describe('chat ordering', () => {
  it('puts favorites first, then pinned by pin_order, then by most recent last_time', () => {
    const sorted = sortChats([
      chat('old', { last_time: '2025-01-01T00:00:00Z' }),
      chat('pin2', { is_pinned: true, pin_order: 2, last_time: '2025-01-09T00:00:00Z' }),
      chat('new', { last_time: '2025-03-01T00:00:00Z' }),
      chat('never'),
      chat('fav', { is_favorites: true, last_time: null }),
      chat('pin1', { is_pinned: true, pin_order: 1, last_time: '2024-01-01T00:00:00Z' }),
    ]);
    expect(sorted.map((c) => c.username)).toEqual(['fav', 'pin1', 'pin2', 'new', 'old', 'never']);
  });

  it('synthesises favorites only when the server sent none', () => {
    const fav = chat('Избранное', { is_favorites: true, user_id: 7 });
    expect(withFavorites([chat('a')], () => fav).map((c) => c.username)).toEqual(['Избранное', 'a']);
    const server = [chat('a'), chat('Избранное', { is_favorites: true })];
    expect(withFavorites(server, () => fav)).toHaveLength(2);
  });

  it('keys chats by type and peer, favorites apart', () => {
    expect(chatKey(chat('abc'))).toBe('personal:3');
    expect(chatKey(chat('abc', { is_favorites: true }))).toBe('favorites');
  });
});

describe('chat preview and search', () => {
  it('truncates the preview at 50 characters on one line', () => {
    expect(CHAT_PREVIEW_MAX).toBe(50);
    expect(truncatePreview('a'.repeat(50))).toBe('a'.repeat(50));
    expect(truncatePreview('б'.repeat(51))).toBe(`${'б'.repeat(50)}…`);
    expect(truncatePreview('строка\nвторая')).toBe('строка вторая');
  });

  it('filters by name ignoring case', () => {
    const chats = [chat('Борис'), chat('Анна')];
    expect(filterChats(chats, 'бор').map((c) => c.username)).toEqual(['Борис']);
    expect(filterChats(chats, '  ')).toHaveLength(2);
  });
});

describe('unreadElsewhere', () => {
  it("sums every other chat's unread count, never favorites' or this chat's", async () => {
    const { unreadElsewhere } = await import('./chat-order.ts');
    const row = (type: string, user_id: number, unread_count: number, is_favorites = false) => ({
      type,
      user_id,
      unread_count,
      is_favorites,
    });
    const chats = [
      row('personal', 1, 5, true),
      row('personal', 2, 3),
      row('group', 2, 4),
      row('channel', 9, 1),
    ];
    expect(unreadElsewhere(chats, 'personal:2')).toBe(5);
    expect(unreadElsewhere(chats, 'group:2')).toBe(4);
  });
});
