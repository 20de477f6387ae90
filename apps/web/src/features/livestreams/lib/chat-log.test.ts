import type { LiveChatMessage } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { MAX_CHAT_SHOWN, mergeChat, withoutLine } from './chat-log.ts';

const msg = (id: number, content = 'привет'): LiveChatMessage => ({
  id,
  type: 'live-stream-message',
  stream_id: 7,
  content,
  sender_id: 1,
  sender_name: 'Анна',
  timestamp: '2026-01-01T00:00:00.000Z',
  temp_id: `t${id}`,
});

describe('live chat log', () => {
  it('shows a server line once, in id order, whether it came with the history or over the socket', () => {
    const viaSocket = mergeChat([], [msg(5)]);
    const withHistory = mergeChat(viaSocket, [msg(3), msg(5)]);
    expect(withHistory.map((m) => m.id)).toEqual([3, 5]);
    expect(mergeChat(withHistory, [msg(5)])).toBe(withHistory);
  });

  it('keeps the last 100', () => {
    const log = mergeChat(
      [],
      Array.from({ length: 130 }, (_, i) => msg(i + 1)),
    );
    expect(log).toHaveLength(MAX_CHAT_SHOWN);
    expect(log[0]!.id).toBe(31);
  });

  it('drops a deleted line and leaves the log alone for an unknown one', () => {
    const log = mergeChat([], [msg(1), msg(2)]);
    expect(withoutLine(log, 1).map((m) => m.id)).toEqual([2]);
    expect(withoutLine(log, 9)).toBe(log);
  });
});
