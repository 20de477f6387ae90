import type { ChatListItem, LastMessage } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { previewOf } from './ChatListRow.tsx';

const last = (extra: Partial<LastMessage>): LastMessage => ({
  content: '',
  sender_id: 2,
  sender_username: 'vera',
  is_read: false,
  is_delivered: true,
  created_at: '2025-01-01T00:00:00.000Z',
  message_type: 'media',
  ...extra,
});
const chat = (message: LastMessage): ChatListItem => ({
  type: 'personal',
  user_id: 2,
  username: 'Вера',
  avatar_url: null,
  avatar_thumbnail_url: null,
  is_favorites: false,
  is_pinned: false,
  pin_order: null,
  unread_count: 1,
  last_message: message,
  last_time: message.created_at,
  last_seen: null,
});

describe('chat list preview', () => {
  it('names a message without text by its attachment, as Telegram does', () => {
    expect(previewOf(chat(last({ file_type: 'voice' })), 1)).toBe('Голосовое сообщение');
    expect(previewOf(chat(last({ file_type: 'voice', sender_id: 1 })), 1)).toBe('Вы: Голосовое сообщение');
    expect(previewOf(chat(last({ file_type: 'photo' })), 1)).toBe('Фото');
    expect(previewOf(chat(last({ file_type: 'video' })), 1)).toBe('Видео');
    expect(previewOf(chat(last({ file_type: 'document' })), 1)).toBe('Файл');
  });

  it('shows the text when there is one, and the generic word when the kind is unknown', () => {
    expect(previewOf(chat(last({ file_type: 'photo', content: 'Смотри **какой** вид' })), 1)).toBe(
      'Смотри какой вид',
    );
    expect(previewOf(chat(last({})), 1)).toBe('Вложение');
  });

  it('a call entry reads from each side: outgoing for the caller, incoming or missed for the callee', () => {
    const answered = { message_type: 'call' as const, content: 'Исходящий видеозвонок · 3:12' };
    expect(previewOf(chat(last({ ...answered, sender_id: 1 })), 1)).toBe('Исходящий видеозвонок · 3:12');
    expect(previewOf(chat(last({ ...answered, sender_id: 2 })), 1)).toBe('Входящий видеозвонок · 3:12');
    const unanswered = { message_type: 'call' as const, content: 'Исходящий звонок · нет ответа' };
    expect(previewOf(chat(last({ ...unanswered, sender_id: 2 })), 1)).toBe('Пропущенный звонок');
  });
});
