import type { Message } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { authorMarks } from './author-runs.ts';
import type { DisplayMessage } from './message-status.ts';

const item = (id: number, sender: number, type: Message['message_type'] = 'text'): DisplayMessage => ({
  key: `m${id}`,
  status: null,
  tempId: null,
  message: {
    id,
    sender_id: sender,
    sender_name: `u${sender}`,
    sender_avatar_url: null,
    sender_username: `u${sender}`,
    content: 'x',
    created_at: '2025-01-01T10:00:00.000Z',
    is_read: true,
    is_delivered: true,
    is_edited: false,
    edited_at: null,
    is_forwarded: false,
    forwarded_from_username: null,
    files: [],
    message_type: type,
  },
});

describe('authorMarks', () => {
  it('names the first bubble of a run and puts the avatar on its last; own bubbles carry none', () => {
    const marks = authorMarks([item(1, 2), item(2, 2), item(3, 2), item(4, 1), item(5, 3), item(6, 2)], 1);
    expect([...marks.entries()].map(([k, m]) => [k, m.name, m.avatar])).toEqual([
      ['m1', true, false],
      ['m2', false, false],
      ['m3', false, true],
      ['m5', true, true],
      ['m6', true, true],
    ]);
  });

  it('a service line breaks a run and has no author', () => {
    const marks = authorMarks([item(1, 2), item(2, 2, 'service'), item(3, 2)], 1);
    expect(marks.get('m2')).toBeUndefined();
    expect(marks.get('m1')).toMatchObject({ name: true, avatar: true });
    expect(marks.get('m3')).toMatchObject({ name: true, avatar: true });
  });

  it('picks the same name colour for the same sender', () => {
    const marks = authorMarks([item(1, 9), item(2, 5), item(3, 9)], 1);
    expect(marks.get('m1')?.tone).toBe(marks.get('m3')?.tone);
    expect(marks.get('m1')?.tone).not.toBe(marks.get('m2')?.tone);
  });
});
