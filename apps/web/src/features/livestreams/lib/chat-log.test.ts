import type { LiveChatMessage } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { chatFromData, MAX_CHAT_SHOWN, mergeChat } from './chat-log.ts';

const msg = (sender: number, temp: string, content = 'привет'): LiveChatMessage => ({
  type: 'live-stream-message',
  stream_id: 7,
  content,
  sender_id: sender,
  sender_name: 'Анна',
  timestamp: '2026-01-01T00:00:00.000Z',
  temp_id: temp,
});

describe('live chat log', () => {
  it('shows a message once whichever path brings it', () => {
    const viaSocket = mergeChat([], [msg(1, 'a')]);
    const viaData = mergeChat(viaSocket, [msg(1, 'a'), msg(2, 'a')]);
    expect(viaData.map((m) => `${m.sender_id}:${m.temp_id}`)).toEqual(['1:a', '2:a']);
    expect(mergeChat(viaData, [msg(2, 'a')])).toBe(viaData);
  });

  it('keeps the last 100', () => {
    const many = Array.from({ length: 130 }, (_, i) => msg(1, `t${i}`));
    const log = mergeChat([], many);
    expect(log).toHaveLength(MAX_CHAT_SHOWN);
    expect(log[0]!.temp_id).toBe('t30');
  });

  it('takes the sender from the packet identity and refuses malformed data', () => {
    const data = { ...msg(99, 'x', '  hi  '), sender_id: 99 };
    expect(chatFromData(data, 'user-3', 7)).toMatchObject({ sender_id: 3, content: 'hi', temp_id: 'x' });
    expect(chatFromData(data, null, 7)).toBeNull();
    expect(chatFromData(data, 'user-3', 8)).toBeNull();
    expect(chatFromData({ ...data, content: '   ' }, 'user-3', 7)).toBeNull();
    expect(chatFromData('nope', 'user-3', 7)).toBeNull();
  });
});
