import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectedSocket, type KadrSocket, useRealtime } from './socket.ts';

const socket = { id: 'test' } as unknown as KadrSocket;

describe('connectedSocket', () => {
  afterEach(() => {
    vi.useRealTimers();
    useRealtime.setState({ socket: null, connected: false });
  });

  it('answers the connected socket at once', async () => {
    useRealtime.setState({ socket, connected: true });
    await expect(connectedSocket(1000)).resolves.toBe(socket);
  });

  it('waits for a socket that is still connecting, as a line written right after the page opened does', async () => {
    useRealtime.setState({ socket, connected: false });
    const waiting = connectedSocket(1000);
    useRealtime.setState({ connected: true });
    await expect(waiting).resolves.toBe(socket);
  });

  it('gives up after the wait, so the sender is told it failed', async () => {
    vi.useFakeTimers();
    const waiting = connectedSocket(1000);
    vi.advanceTimersByTime(1000);
    await expect(waiting).resolves.toBeNull();
  });
});
