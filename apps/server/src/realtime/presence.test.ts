import { describe, expect, it } from 'vitest';
import { memoryPresence } from './presence.ts';

describe('memoryPresence', () => {
  it('answers online for a user’s first socket and offline for their last, whatever the order', async () => {
    const presence = memoryPresence();
    expect(await presence.connect(1, 'a')).toBe(true);
    expect(await presence.connect(1, 'b')).toBe(false);
    expect(await presence.connect(1, 'c')).toBe(false);
    expect(await presence.connect(2, 'd')).toBe(true);
    expect(await presence.onlineAmong([1, 2, 3])).toEqual([1, 2]);
    // The first socket leaves first: the user stays online through the others.
    expect(await presence.disconnect(1, 'a')).toBe(false);
    expect(await presence.disconnect(1, 'c')).toBe(false);
    expect(await presence.onlineAmong([1])).toEqual([1]);
    expect(await presence.disconnect(1, 'b')).toBe(true);
    expect(await presence.onlineAmong([1, 2])).toEqual([2]);
    expect(await presence.disconnect(2, 'd')).toBe(true);
    expect(await presence.onlineAmong([1, 2])).toEqual([]);
  });

  it('ignores a socket it does not hold, with one socket and with several', async () => {
    const presence = memoryPresence();
    expect(await presence.disconnect(1, 'a')).toBe(false);
    await presence.connect(1, 'a');
    expect(await presence.disconnect(1, 'x')).toBe(false);
    await presence.connect(1, 'b');
    expect(await presence.disconnect(1, 'x')).toBe(false);
    expect(await presence.disconnect(1, 'b')).toBe(false);
    expect(await presence.connect(1, 'b')).toBe(false);
    expect(await presence.disconnect(1, 'a')).toBe(false);
    expect(await presence.disconnect(1, 'b')).toBe(true);
    expect(await presence.onlineAmong([1])).toEqual([]);
  });
});
