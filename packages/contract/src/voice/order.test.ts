import { describe, expect, it } from 'vitest';
import { orderVoiceParticipants } from './order.ts';

const p = (user_id: number, joined: number, hand: number | null) => ({
  user_id,
  joined_at: new Date(Date.UTC(2026, 0, 1, 10, 0, joined)).toISOString(),
  hand_raised_at: hand === null ? null : new Date(Date.UTC(2026, 0, 1, 10, 1, hand)).toISOString(),
});

describe('orderVoiceParticipants', () => {
  const list = [p(1, 0, null), p(2, 1, 30), p(3, 2, null), p(4, 3, 10), p(5, 3, null)];

  it('those who run the chat see raised hands first, earliest raised on top, then join order', () => {
    expect(orderVoiceParticipants(list, true).map((x) => x.user_id)).toEqual([4, 2, 1, 3, 5]);
  });

  it('everyone else sees join order (ties by id), hands or not', () => {
    expect(orderVoiceParticipants([...list].reverse(), false).map((x) => x.user_id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('does not reorder the list it was given', () => {
    const copy = [...list];
    orderVoiceParticipants(list, true);
    expect(list).toEqual(copy);
  });
});
