import type { Message } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../../test/fixtures.ts';
import type { OutboxEntry } from '../store/outbox.ts';
import { canEdit, displayMessages, serverStatus } from './message-status.ts';

const me = { id: 1, name: 'Анна', username: 'anna', avatar_url: null };
const message = (id: number, sender_id: number, extra: Partial<Message> = {}): Message =>
  messageOf(id, sender_id, {
    sender_name: '',
    sender_username: '',
    content: `m${id}`,
    created_at: new Date(0).toISOString(),
    ...extra,
  });
const entry = (temp_id: string, state: OutboxEntry['state'], other_user_id = 2): OutboxEntry => ({
  temp_id,
  owner_id: 1,
  other_user_id,
  content: temp_id,
  attachment_ids: [],
  files: [],
  created_at: new Date(0).toISOString(),
  state,
});

describe('message order', () => {
  it('puts a message that failed an hour ago an hour up, never below newer ones; a failure says why', () => {
    const at = (min: number) => new Date(Date.UTC(2025, 0, 1, 10, min)).toISOString();
    const failed: OutboxEntry = {
      ...entry('temp-f', 'failed'),
      created_at: at(5),
      error: 'Пользователь принимает сообщения только от тех, на кого подписан',
      retryable: false,
    };
    const shown = displayMessages(
      [message(1, 2, { created_at: at(0) }), message(2, 2, { created_at: at(30) })],
      [failed, { ...entry('temp-p', 'pending'), created_at: at(40) }],
      2,
      me,
    );
    expect(shown.map((s) => s.key)).toEqual(['m1', 'temp-f', 'm2', 'temp-p']);
    expect(shown[1]?.failure).toEqual({ error: failed.error, retryable: false });
  });
});

describe('message status', () => {
  it('goes sent → delivered → read from the receipts', () => {
    expect(serverStatus({ is_delivered: false, is_read: false })).toBe('sent');
    expect(serverStatus({ is_delivered: true, is_read: false })).toBe('delivered');
    expect(serverStatus({ is_delivered: true, is_read: true })).toBe('read');
  });

  it('shows outbox entries of this chat as pending or failed after the server messages, once confirmed hidden', () => {
    const shown = displayMessages(
      [message(10, 2), message(11, 1, { is_delivered: true }), message(12, 1, { temp_id: 'temp-c' })],
      [
        entry('temp-a', 'pending'),
        entry('temp-b', 'failed'),
        entry('temp-x', 'pending', 3),
        entry('temp-c', 'sending'),
      ],
      2,
      me,
    );
    expect(shown.map((s) => [s.key, s.status])).toEqual([
      ['m10', null],
      ['m11', 'delivered'],
      ['m12', 'sent'],
      ['temp-a', 'pending'],
      ['temp-b', 'failed'],
    ]);
  });

  it('allows editing own, non-temporary messages under one hour old', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const own = {
      key: 'm1',
      message: message(1, 1, { created_at: at(59) }),
      status: 'sent' as const,
      tempId: null,
    };
    expect(canEdit(own, 1, now)).toBe(true);
    expect(canEdit({ ...own, message: message(1, 1, { created_at: at(61) }) }, 1, now)).toBe(false);
    expect(canEdit({ ...own, message: message(1, 2, { created_at: at(1) }) }, 1, now)).toBe(false);
    expect(canEdit({ ...own, tempId: 'temp-1' }, 1, now)).toBe(false);
  });
});
