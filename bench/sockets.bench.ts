import type { ClientToServerEvents, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { row, startTarget } from './lib.ts';

/** Idle authenticated sockets held per GiB of server memory, measured at `count` connections. */
export async function socketsBench(count = 10_000): Promise<string[]> {
  const t = await startTarget({ BENCH_ENGINE: 'pglite', BENCH_SEED_TOKENS: String(count) });
  const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
  try {
    const before = await t.request('memory');
    const batch = 200;
    for (let start = 0; start < count; start += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, count - start) }, (_, i) => {
          const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(t.target.appUrl, {
            path: '/socket.io',
            transports: ['websocket'],
            auth: { token: `idle-token-${start + i}` },
            reconnection: false,
            forceNew: true,
          });
          sockets.push(s);
          return new Promise<void>((resolve, reject) => {
            s.once('connect', () => resolve());
            s.once('connect_error', reject);
          });
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 3000));
    const after = await t.request('memory');
    const perSocketBytes = (after.rss - before.rss) / after.sockets;
    const perGiB = 1024 ** 3 / perSocketBytes;
    return [
      row(['sockets', 'rss before MiB', 'rss after MiB', 'KiB/socket', 'sockets/GiB']),
      row([after.sockets, before.rss / 2 ** 20, after.rss / 2 ** 20, perSocketBytes / 1024, perGiB]),
    ];
  } finally {
    for (const s of sockets) s.disconnect();
    await t.stop();
  }
}
