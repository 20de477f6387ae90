import type { Message } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import type { DisplayMessage } from '../lib/message-status.ts';
import { unseenBelow } from './use-stick-to-bottom.ts';

const item = (id: number, sender: number): DisplayMessage => ({
  key: `m${id}`,
  status: null,
  tempId: null,
  message: { id, sender_id: sender } as Message,
});

describe('unseenBelow', () => {
  it("counts others' messages after the last one seen at the bottom, not one's own", () => {
    const items = [item(1, 2), item(2, 2), item(3, 1), item(4, 2), item(5, 3)];
    expect(unseenBelow(items, 'm2', 1)).toBe(2);
    expect(unseenBelow(items, 'm5', 1)).toBe(0);
    expect(unseenBelow(items, null, 1)).toBe(0);
    expect(unseenBelow(items, 'gone', 1)).toBe(0);
  });
});
