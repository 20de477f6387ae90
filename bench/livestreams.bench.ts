import type { ClientToServerEvents, LiveChatMessage, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { row, startTarget } from './lib.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const VIEWERS = 1000;
const SENDERS = 20;
const RATE_PER_S = 20;
const SECONDS = 10;
/** Progress on stderr: the set-up of 1,000 sockets takes minutes on a loaded machine. */
const progress = (what: string) => process.stderr.write(`[livestreams bench] ${what}\n`);

function open(url: string, auth: Record<string, unknown>): Promise<Client> {
  const s: Client = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth,
    reconnection: false,
    forceNew: true,
    // 1,000 connections on a loaded machine: the default 20 s connect timeout was hit at a load of 70.
    timeout: 120_000,
  });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Outcome {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
}

/**
 * Sends RATE_PER_S messages/s for SECONDS, spread over SENDERS senders (each within the default per-user
 * chat limit), and records send → receive at every one of VIEWERS sockets.
 */
async function drive(
  viewers: Client[],
  subscribe: (s: Client, onMessage: (sentAt: number) => void) => void,
  send: (sender: Client, i: number, sentAt: number) => void,
): Promise<Outcome> {
  const latencies: number[] = [];
  for (const v of viewers) subscribe(v, (sentAt) => latencies.push(performance.now() - sentAt));
  const total = RATE_PER_S * SECONDS;
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / RATE_PER_S;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    send(viewers[i % SENDERS]!, i, performance.now());
  }
  const expected = total * viewers.length;
  // Late is not lost: wait while deliveries still arrive (a starved machine drains for a long time), and
  // call the rest lost once nothing came for 15 s (bounded at 2 min).
  const hardDeadline = performance.now() + 120_000;
  let lastCount = -1;
  let lastProgress = performance.now();
  while (latencies.length < expected && performance.now() < hardDeadline) {
    if (latencies.length !== lastCount) {
      lastCount = latencies.length;
      lastProgress = performance.now();
    } else if (performance.now() - lastProgress > 15_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  latencies.sort((x, y) => x - y);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    delivered: latencies.length,
    expected,
  };
}

/** Live chat fan-out: 1,000 viewers of one stream vs a bare Socket.IO room broadcast, same load. */
export async function livestreamsChatBench(): Promise<string[]> {
  progress('starting the bench server');
  const t = await startTarget({
    BENCH_ENGINE: 'pglite',
    BENCH_SEED_TOKENS: String(VIEWERS),
    BENCH_SOCKET_ECHO: '1',
    // No host ever joins the media room here: without this the stream ends once the host is overdue (a
    // minute), which on a loaded machine happened while the 1,000 sockets were still connecting, and
    // every later message was refused as "stream not found" (counted as lost).
    LIVESTREAM_HOST_TIMEOUT_MS: String(24 * 60 * 60 * 1000),
  });
  const opened: Client[] = [];
  try {
    const res = await fetch(`${t.target.appUrl}/api/v1/livestreams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'bench' }),
    });
    if (res.status !== 201) throw new Error(`stream start: ${res.status} ${await res.text()}`);
    const streamId = ((await res.json()) as { id: number }).id;
    progress(`stream ${streamId} started; opening ${VIEWERS} viewer sockets`);

    const viewers: Client[] = [];
    for (let start = 0; start < VIEWERS; start += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, VIEWERS - start) }, (_, i) =>
          open(t.target.appUrl, { token: `idle-token-${start + i}` }),
        ),
      );
      viewers.push(...batch);
    }
    opened.push(...viewers);
    // A viewer dropped by the server (missed pings on a starved machine) misses what follows: counted here,
    // so a "lost" figure can be told apart from messages the server never sent.
    const drops = new Map<string, number>();
    for (const v of viewers) v.on('disconnect', (reason) => drops.set(reason, (drops.get(reason) ?? 0) + 1));
    progress('viewers connected; joining the stream');
    await Promise.all(
      viewers.map(
        (v) =>
          new Promise<void>((resolve, reject) =>
            v.emit('live-stream-viewer-join', { stream_id: streamId }, (ack) =>
              ack.ok ? resolve() : reject(new Error(ack.error)),
            ),
          ),
      ),
    );
    progress('sending through Kadr');
    /** The server's answers to the senders, by result: a refused message explains a lost one. */
    const acks = new Map<string, number>();
    const kadr = await drive(
      viewers,
      (s, on) => s.on('live-stream-message', (m: LiveChatMessage) => on(Number(m.content.split(' ')[0]))),
      (sender, i, sentAt) =>
        sender.emit(
          'live-stream-message',
          { stream_id: streamId, content: `${sentAt} #${i}`, temp_id: `b-${i}` },
          (ack) => {
            const key = ack.ok ? 'ok' : ack.code;
            acks.set(key, (acks.get(key) ?? 0) + 1);
          },
        ),
    );
    progress(`Kadr acks: ${[...acks].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    progress(
      `viewer sockets dropped during the run: ${[...drops].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    );
    for (const v of viewers) v.disconnect();

    const bareUrl = t.target.bareSocketUrl!;
    const bare: Client[] = [];
    for (let start = 0; start < VIEWERS; start += 100) {
      bare.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, VIEWERS - start) }, () => open(bareUrl, { room: 'stream' })),
        )),
      );
    }
    opened.push(...bare);
    progress('sending through the bare Socket.IO room');
    type Bare = Socket<{ echo: (p: LiveChatMessage) => void }, { relay: (m: unknown) => void }>;
    // The same message as Kadr delivers (shape and size), so the two rows differ only by the server's work.
    const baseline = await drive(
      bare,
      (s, on) => (s as unknown as Bare).on('echo', (m) => on(Number(m.content.split(' ')[0]))),
      (sender, i, sentAt) =>
        (sender as unknown as Bare).emit('relay', {
          to: 'stream',
          payload: {
            type: 'live-stream-message',
            stream_id: streamId,
            content: `${sentAt} #${i}`,
            sender_id: 1,
            sender_name: 'bench',
            timestamp: new Date().toISOString(),
            temp_id: `b-${i}`,
          } satisfies LiveChatMessage,
        }),
    );

    const line = (name: string, o: Outcome) =>
      row([name, o.p50, o.p99, o.max, o.delivered, o.expected - o.delivered]);
    return [
      row(['path', 'p50 ms', 'p99 ms', 'max ms', 'delivered', 'lost']),
      line('Kadr live-stream-message (validate, limit, store, fan-out)', kadr),
      line('bare Socket.IO room broadcast', baseline),
    ];
  } finally {
    for (const s of opened) s.disconnect();
    await t.stop();
  }
}
