import { performance } from 'node:perf_hooks';
import type { ClientToServerEvents, MessageEvent, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { row, startTarget } from './lib.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EchoSocket = Socket<
  { echo: (p: { seq: number }) => void },
  { relay: (m: { to: string; payload: { seq: number } }) => void }
>;

export interface MessengerBenchOptions {
  users: number;
  /** Messages per second over all users. */
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

interface Run {
  sent: number;
  received: number;
  latencies: number[];
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** Receiver of sender i: a fixed spread so every user both sends and receives. */
const peerOf = (i: number, users: number) => (i * 7 + 1) % users;

async function inBatches<T>(count: number, batch: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += batch)
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(batch, count - start) }, (_, k) => make(start + k)),
      )),
    );
  return out;
}

function connected<S extends Socket>(s: S): Promise<S> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/**
 * Fires `send(seq, sender)` at a steady `rate` for `seconds`; `pending` maps seq → send time and the
 * receive handler turns it into a latency. Returns once sends are done and stragglers had 2 s.
 */
async function drive(
  opts: MessengerBenchOptions,
  seconds: number,
  pending: Map<number, number>,
  run: Run,
  send: (seq: number, sender: number) => void,
  firstSeq: number,
) {
  let seq = firstSeq;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = (performance.now() - start) / 1000;
      const due = Math.min(opts.rate * seconds, Math.floor(elapsed * opts.rate)) - (seq - firstSeq);
      for (let k = 0; k < due; k += 1) {
        const sender = seq % opts.users;
        pending.set(seq, performance.now());
        run.sent += 1;
        send(seq, sender);
        seq += 1;
      }
      if (seq - firstSeq >= opts.rate * seconds) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  await new Promise((r) => setTimeout(r, 2000));
  return seq;
}

function report(name: string, run: Run): string {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return row([
    name,
    run.sent,
    run.received,
    percentile(sorted, 50),
    percentile(sorted, 99),
    sorted.at(-1) ?? 0,
  ]);
}

/** Send → receive latency: HTTP POST /messages → `new-message` on the recipient's socket, vs a bare Socket.IO relay. */
export async function messengerBench(
  engines: Array<'pglite' | 'postgres'>,
  opts: MessengerBenchOptions = { users: 1000, rate: 500, seconds: 10, warmupSeconds: 2 },
): Promise<string[]> {
  const lines = [row(['path', 'sent', 'received', 'p50 ms', 'p99 ms', 'max ms'])];
  for (const engine of engines) {
    const t = await startTarget({
      BENCH_ENGINE: engine,
      BENCH_SEED_TOKENS: String(opts.users),
      BENCH_SOCKET_ECHO: '1',
    });
    const sockets: Socket[] = [];
    try {
      const tokens = Array.from({ length: opts.users }, (_, i) => `idle-token-${i}`);
      const ids = await inBatches(opts.users, 50, async (i) => {
        const res = await fetch(`${t.target.appUrl}/api/v1/auth/me`, {
          headers: { authorization: `Bearer ${tokens[i]}` },
        });
        return ((await res.json()) as { user: { id: number } }).user.id;
      });

      // Baseline: the same traffic pattern through a bare Socket.IO relay.
      const echoPending = new Map<number, number>();
      const echoRun: Run = { sent: 0, received: 0, latencies: [] };
      let echoMeasuring = false;
      const echo = await inBatches(opts.users, 200, (i) => {
        const s: EchoSocket = connect(t.target.bareSocketUrl as string, {
          transports: ['websocket'],
          auth: { room: String(i) },
          reconnection: false,
          forceNew: true,
        });
        sockets.push(s);
        s.on('echo', ({ seq }) => {
          const at = echoPending.get(seq);
          if (at === undefined) return;
          echoPending.delete(seq);
          if (!echoMeasuring) return;
          echoRun.received += 1;
          echoRun.latencies.push(performance.now() - at);
        });
        return connected(s);
      });
      const relay = (seq: number, sender: number) =>
        echo[sender]?.emit('relay', { to: String(peerOf(sender, opts.users)), payload: { seq } });
      const warm: Run = { sent: 0, received: 0, latencies: [] };
      let seq = await drive(opts, opts.warmupSeconds, echoPending, warm, relay, 0);
      echoMeasuring = true;
      seq = await drive(opts, opts.seconds, echoPending, echoRun, relay, seq);
      lines.push(report(`${engine}: bare echo`, echoRun));

      const appPending = new Map<number, number>();
      const appRun: Run = { sent: 0, received: 0, latencies: [] };
      let appMeasuring = false;
      const failures = { n: 0 };
      await inBatches(opts.users, 200, (i) => {
        const s: AppSocket = connect(t.target.appUrl, {
          path: '/socket.io',
          transports: ['websocket'],
          auth: { token: tokens[i] },
          reconnection: false,
          forceNew: true,
        });
        sockets.push(s);
        s.on('new-message', ({ message }: MessageEvent) => {
          if (message.sender_id === ids[i]) return; // the sender's own devices get it too
          const n = Number(message.content.slice(6));
          const at = appPending.get(n);
          if (at === undefined) return;
          appPending.delete(n);
          if (!appMeasuring) return;
          appRun.received += 1;
          appRun.latencies.push(performance.now() - at);
        });
        return connected(s);
      });
      const post = (n: number, sender: number) => {
        fetch(`${t.target.appUrl}/api/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[sender]}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            other_user_id: ids[peerOf(sender, opts.users)],
            content: `bench ${n}`,
            temp_id: `bench-${n}`,
          }),
        })
          .then((res) => {
            if (res.status !== 200) failures.n += 1;
            return res.arrayBuffer();
          })
          .catch(() => {
            failures.n += 1;
          });
      };
      seq = await drive(opts, opts.warmupSeconds, appPending, warm, post, seq);
      appMeasuring = true;
      await drive(opts, opts.seconds, appPending, appRun, post, seq);
      lines.push(report(`${engine}: kadr`, appRun) + (failures.n > 0 ? ` (${failures.n} failed sends)` : ''));
    } finally {
      for (const s of sockets) s.disconnect();
      await t.stop();
    }
  }
  return lines;
}
