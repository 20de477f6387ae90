import type {
  Call,
  CallEvent,
  ClientToServerEvents,
  MessageEvent,
  ServerToClientEvents,
} from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { createTestApp, registerUser } from '../apps/server/test/helpers.ts';
import { row } from './lib.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};

/**
 * Call signalling on the server: `POST /calls` pressed → `call-incoming` on the callee's socket, p95
 * over `rounds` calls (each then hung up), beside the same path for a chat message (`send-message` →
 * `new-message` on the peer's socket) as the baseline. The browser part (modal drawn) adds one React
 * render; the media figures come from the calls e2e (npm run test:e2e:media).
 */
export async function callsBench(engines: Array<'pglite' | 'postgres'>, rounds = 20): Promise<string[]> {
  const lines = [
    row(['engine', 'call press → incoming p50 ms', 'p95 ms', 'message → peer p50 ms', 'p95 ms']),
  ];
  for (const engine of engines) {
    if (engine === 'postgres') process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
    else delete process.env.DATABASE_URL;
    const t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000000' });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sockets: ClientSocket[] = [];
    try {
      const a = await registerUser(t.app);
      const b = await registerUser(t.app);
      const open = async (token: string) => {
        const s: ClientSocket = connect(url, {
          path: '/socket.io',
          transports: ['websocket'],
          auth: { token },
        });
        sockets.push(s);
        await new Promise<void>((resolve) => s.once('connect', () => resolve()));
        return s;
      };
      const sa = await open(a.access_token);
      const sb = await open(b.access_token);
      const headers = { authorization: `Bearer ${a.access_token}`, 'content-type': 'application/json' };

      const callTimes: number[] = [];
      for (let i = 0; i < rounds + 3; i += 1) {
        const ring = new Promise<CallEvent>((resolve) => sb.once('call-incoming', resolve));
        const started = performance.now();
        const res = await fetch(`${url}/api/v1/calls`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ user_id: b.user.id, kind: 'video' }),
        });
        const call = (await res.json()) as Call;
        await ring;
        if (i >= 3) callTimes.push(performance.now() - started); // 3 warm-up rounds
        await fetch(`${url}/api/v1/calls/${call.id}/end`, {
          method: 'POST',
          headers: { authorization: headers.authorization },
        });
      }

      const messageTimes: number[] = [];
      for (let i = 0; i < rounds + 3; i += 1) {
        const arrived = new Promise<MessageEvent>((resolve) => sb.once('new-message', resolve));
        const started = performance.now();
        sa.emit(
          'send-message',
          { other_user_id: b.user.id, content: `bench ${i}`, temp_id: `bench-${i}` },
          () => undefined,
        );
        await arrived;
        if (i >= 3) messageTimes.push(performance.now() - started);
      }
      lines.push(
        row([engine, p(callTimes, 0.5), p(callTimes, 0.95), p(messageTimes, 0.5), p(messageTimes, 0.95)]),
      );
    } finally {
      for (const s of sockets) s.disconnect();
      await t.close();
    }
  }
  return lines;
}
