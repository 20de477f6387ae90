import { describe, expect, it, vi } from 'vitest';
import { PAGE_ID } from '../api/page-id.ts';

/** The options of each socket `createSocket` made, and the one-shot listeners it put on it. */
const made: Array<{ auth: (send: (auth: unknown) => void) => void; once: Map<string, () => void> }> = [];

vi.mock('socket.io-client', () => ({
  io: (...args: unknown[]) => {
    const once = new Map<string, () => void>();
    made.push({ ...(args.at(-1) as { auth: (send: (auth: unknown) => void) => void }), once });
    return { once: (event: string, listener: () => void) => once.set(event, listener) };
  },
}));

const { createSocket } = await import('./socket.ts');

describe('createSocket', () => {
  it('names its page in every handshake, and asks what it missed only on its first', async () => {
    await createSocket('token-1');
    const socket = made[0];
    if (!socket) throw new Error('no socket made');
    const handshake = () => new Promise((resolve) => socket.auth(resolve));
    expect(await handshake()).toEqual({ token: 'token-1', page: PAGE_ID, age: expect.any(Number) });
    socket.once.get('connect')?.();
    // A reconnection: no `missed` asked, the page still named (its sends over HTTP are not echoed to it).
    expect(await handshake()).toEqual({ token: 'token-1', page: PAGE_ID });
  });
});
