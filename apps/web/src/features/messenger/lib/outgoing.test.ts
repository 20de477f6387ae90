import { Limits } from '@kadr/contract/browser';
import { describe, expect, it } from 'vitest';
import { outgoingEntries } from './outgoing.ts';

const base = { owner_id: 1, other_user_id: 2 };

describe('outgoingEntries', () => {
  it('sends a text within the limit as one message', () => {
    const [entry, ...rest] = outgoingEntries(base, 'привет', [], 7, 1000);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ content: 'привет', reply_to_id: 7, attachment_ids: [] });
  });

  it('splits a text over 4,096 characters into several messages in order, each within the limit', () => {
    const text = Array.from({ length: 1500 }, (_, i) => `слово${i}`).join(' ');
    expect(text.length).toBeGreaterThan(Limits.messageContent);
    const entries = outgoingEntries(base, text, [], 9, 1000);
    expect(entries.length).toBeGreaterThan(1);
    for (const e of entries) expect(e.content.length).toBeLessThanOrEqual(Limits.messageContent);
    expect(entries.map((e) => e.content).join(' ')).toBe(text);
    // The reply rides on the first part only; each part has its own temp_id and a later time.
    expect(entries.filter((e) => e.reply_to_id === 9)).toHaveLength(1);
    expect(new Set(entries.map((e) => e.temp_id)).size).toBe(entries.length);
    const times = entries.map((e) => e.created_at);
    expect([...times].sort()).toEqual(times);
  });

  it('sends attachments alone with empty text', () => {
    const file = {
      id: 3,
      file_type: 'photo' as const,
      file_url: '/f',
      thumbnail_url: null,
      width: 1,
      height: 1,
      duration: null,
      file_size: 1,
      file_name: null,
    };
    const [entry] = outgoingEntries(base, '  ', [file], null);
    expect(entry).toMatchObject({ content: '', attachment_ids: [3] });
  });
});
