// Group and channel fan-out over sockets, beside a bare Socket.IO room broadcast in the same run:
// a group of N connected members at R messages/s (send → every other member receives), and a channel
// with M connected subscribers (one post → the last subscriber receives it).
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ClientToServerEvents, MessageEvent, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { row, startTarget, type Target } from './lib.ts';
import { connected, inBatches, percentile } from './messenger.bench.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** The bare relay's payload: the sequence number beside a copy of a real `new-message` event. */
type EchoPayload = { seq: number; event?: unknown };
type EchoSocket = Socket<
  { echo: (p: EchoPayload) => void },
  {
    relay: (m: { to: string; payload: EchoPayload }) => void;
    // The bare server has no handler for it: it is read and decoded like the app's receipts, then dropped.
    'message-delivered': (p: { message_ids: number[] }) => void;
  }
>;

export interface FanoutOptions {
  members: number;
  rate: number;
  seconds: number;
  /** Members who send, in turn (each stays well under the per-user send limit). */
  senders: number;
  subscribers: number;
  /** Channel posts measured one after another. */
  posts: number;
}

const load1 = () => os.loadavg()[0]?.toFixed(1) ?? '?';
/** socket.io-client's 20 s default gave up connecting 1,000 sockets at load average 56 on 2 cores. */
const CONNECT_TIMEOUT_MS = 180_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A JSON request with a bench user's token; throws on a non-2xx answer. */
function callApi<T>(t: Target, token: string, method: string, url: string, body?: object): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.target.appUrl}/api/v1${url}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          (res.statusCode ?? 500) < 300
            ? resolve((text ? JSON.parse(text) : null) as T)
            : reject(new Error(`${method} ${url}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Receipts of one measured run: every (message, receiver) pair with its latency. */
class Receipts {
  sentAt = new Map<number, number>();
  perMessage = new Map<number, number>();
  lastAt = new Map<number, number>();
  latencies: number[] = [];
  got(seq: number) {
    const at = this.sentAt.get(seq);
    if (at === undefined) return;
    const now = performance.now();
    this.latencies.push(now - at);
    this.perMessage.set(seq, (this.perMessage.get(seq) ?? 0) + 1);
    this.lastAt.set(seq, now - at);
  }
  summary(expectedPerMessage: number) {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const last = [...this.lastAt.values()].sort((a, b) => a - b);
    const expected = this.sentAt.size * expectedPerMessage;
    return {
      messages: this.sentAt.size,
      expected,
      received: sorted.length,
      lost: expected - sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      lastP50: percentile(last, 50),
      lastMax: last.at(-1) ?? Number.NaN,
    };
  }
}

/** Waits until every message reached `expected` receivers, at most `ms`. */
async function drain(r: Receipts, expected: number, ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if ([...r.sentAt.keys()].every((seq) => (r.perMessage.get(seq) ?? 0) >= expected)) return;
    await sleep(50);
  }
}

/** Fires `send(seq)` at `rate` per second for `seconds`, every 5 ms in small bursts. */
async function drive(rate: number, seconds: number, firstSeq: number, send: (seq: number) => void) {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let seq = firstSeq;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate)) - (seq - firstSeq);
      for (let k = 0; k < due; k += 1) send(seq++);
      if (seq - firstSeq >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  return seq;
}

/**
 * The bare baseline's clients do what the app's do with each message: receive a message-sized event and
 * answer a delivery receipt (the web acks every message it receives), so the two runs differ only by the
 * server's own work.
 */
function bareSockets(t: Target, count: number, room: string, current: { r: Receipts | null }) {
  return inBatches(count, 50, (i) => {
    const s: EchoSocket = connect(t.target.bareSocketUrl as string, {
      transports: ['websocket'],
      auth: { room },
      reconnection: false,
      forceNew: true,
      timeout: CONNECT_TIMEOUT_MS,
    });
    // The relay also echoes to the sender: it is one of the room like the rest, so every socket counts.
    void i;
    s.on('echo', ({ seq }) => {
      s.emit('message-delivered', { message_ids: [seq] });
      current.r?.got(seq);
    });
    return connected(s);
  });
}

function appSockets(t: Target, tokens: string[], current: { r: Receipts | null }) {
  return inBatches(tokens.length, 50, (i) => {
    const s: AppSocket = connect(t.target.appUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: tokens[i] },
      reconnection: false,
      forceNew: true,
      timeout: CONNECT_TIMEOUT_MS,
    });
    s.on('new-message', ({ message }: MessageEvent) => {
      // The sender's own devices get it with its temp_id; every other member without.
      if (message.temp_id !== undefined || !message.content.startsWith('bench ')) return;
      s.emit('message-delivered', { message_ids: [message.id] });
      current.r?.got(Number(message.content.slice(6)));
    });
    return connected(s);
  });
}

function summaryRow(name: string, s: ReturnType<Receipts['summary']>) {
  return row([name, s.messages, s.expected, s.received, s.lost, s.p50, s.p99, s.lastP50, s.lastMax, load1()]);
}

/** One real `new-message` event of the group as a member receives it (the bare relay sends a copy). */
async function sampleEvent(t: Target, tokens: string[], groupId: number): Promise<MessageEvent> {
  const [sender, member] = await appSockets(t, tokens.slice(0, 2), { r: null });
  try {
    const got = new Promise<MessageEvent>((resolve) => member?.once('new-message', resolve));
    sender?.emit(
      'send-message',
      { group_id: groupId, content: 'bench sample', temp_id: 'bench-sample' },
      () => {},
    );
    return await got;
  } finally {
    sender?.disconnect();
    member?.disconnect();
  }
}

async function groupRun(t: Target, engine: string, opts: FanoutOptions, tokens: string[], lines: string[]) {
  const current: { r: Receipts | null } = { r: null };
  const n = opts.members;
  const group = await callApi<{ id: number; inviteToken: string }>(
    t,
    tokens[0] as string,
    'POST',
    '/groups',
    {
      name: 'Бенчмарк',
    },
  );
  await inBatches(n - 1, 50, (i) =>
    callApi(t, tokens[i + 1] as string, 'POST', `/groups/invite/${group.inviteToken}/join`),
  );
  const event = await sampleEvent(t, tokens, group.id);

  // Baseline: the same room broadcast of the same event through a bare Socket.IO server.
  const bare = await bareSockets(t, n, 'group', current);
  try {
    const warm = new Receipts();
    current.r = warm;
    let seq = await drive(opts.rate, 2, 0, (s) => {
      warm.sentAt.set(s, performance.now());
      bare[s % opts.senders]?.emit('relay', { to: 'group', payload: { seq: s, event } });
    });
    const run = new Receipts();
    current.r = run;
    seq = await drive(opts.rate, opts.seconds, seq, (s) => {
      run.sentAt.set(s, performance.now());
      bare[s % opts.senders]?.emit('relay', { to: 'group', payload: { seq: s, event } });
    });
    await drain(run, n, 5000);
    lines.push(summaryRow(`${engine} bare room, ${n}`, run.summary(n)));
  } finally {
    for (const s of bare) s.disconnect();
    current.r = null;
  }

  const sockets = await appSockets(t, tokens.slice(0, n), current);
  await sleep(3000);
  let failed = 0;
  // Send → the sender's ack (the server stored and announced it): where the server's own time shows.
  let acked: number[] = [];
  const send = (r: Receipts) => (s: number) => {
    const at = performance.now();
    r.sentAt.set(s, at);
    sockets[s % opts.senders]?.emit(
      'send-message',
      { group_id: group.id, content: `bench ${s}`, temp_id: `bench-${engine}-${s}` },
      (result) => {
        acked.push(performance.now() - at);
        if (!result.ok) failed += 1;
      },
    );
  };
  try {
    const warm = new Receipts();
    current.r = warm;
    let seq = await drive(opts.rate, 2, 0, send(warm));
    await drain(warm, n - 1, 5000);
    const run = new Receipts();
    current.r = run;
    acked = [];
    seq = await drive(opts.rate, opts.seconds, seq, send(run));
    await drain(run, n - 1, 10_000);
    const ackSorted = acked.sort((a, b) => a - b);
    lines.push(
      summaryRow(`${engine} group, ${n}`, run.summary(n - 1)) +
        ` (send ack p50 ${percentile(ackSorted, 50).toFixed(0)} ms, p99 ${percentile(ackSorted, 99).toFixed(0)} ms)` +
        (failed > 0 ? ` (${failed} failed sends)` : ''),
    );
  } finally {
    for (const s of sockets) s.disconnect();
    current.r = null;
  }
}

async function channelRun(t: Target, engine: string, opts: FanoutOptions, tokens: string[], lines: string[]) {
  const current: { r: Receipts | null } = { r: null };
  const m = opts.subscribers;
  const bare = await bareSockets(t, m, 'channel', current);
  try {
    const run = new Receipts();
    current.r = run;
    for (let seq = 0; seq < opts.posts; seq += 1) {
      run.sentAt.set(seq, performance.now());
      bare[0]?.emit('relay', { to: 'channel', payload: { seq } });
      await drain(run, m, 10_000);
    }
    lines.push(summaryRow(`${engine} bare room, ${m}`, run.summary(m)));
  } finally {
    for (const s of bare) s.disconnect();
    current.r = null;
  }

  // The owner is the last token; subscribers are the first `m`.
  const owner = tokens[m] as string;
  const channel = await callApi<{ id: number }>(t, owner, 'POST', '/channels', {
    name: 'Бенчмарк-канал',
    slug: `bench_${engine}`,
  });
  await inBatches(m, 50, (i) => callApi(t, tokens[i] as string, 'POST', `/channels/${channel.id}/subscribe`));
  const sockets = await appSockets(t, tokens.slice(0, m), current);
  await sleep(5000);
  try {
    const run = new Receipts();
    current.r = run;
    for (let seq = 0; seq < opts.posts; seq += 1) {
      run.sentAt.set(seq, performance.now());
      await callApi(t, owner, 'POST', '/messages', {
        channel_id: channel.id,
        content: `bench ${seq}`,
        temp_id: `bench-post-${engine}-${seq}`,
      });
      await drain(run, m, 15_000);
    }
    lines.push(summaryRow(`${engine} channel, ${m}`, run.summary(m)));
  } finally {
    for (const s of sockets) s.disconnect();
    current.r = null;
  }
}

/** Group and channel fan-out per engine, each beside a bare Socket.IO room broadcast. */
export async function groupsFanoutBench(
  engines: Array<'pglite' | 'postgres'>,
  opts: FanoutOptions = {
    members: Number(process.env.GROUPS_BENCH_MEMBERS ?? 1000),
    rate: 50,
    seconds: 10,
    senders: 50,
    subscribers: Number(process.env.GROUPS_BENCH_SUBSCRIBERS ?? 10_000),
    posts: 5,
  },
): Promise<string[]> {
  const lines = [
    row([
      'run',
      'messages',
      'expected',
      'received',
      'lost',
      'p50 ms',
      'p99 ms',
      'last p50',
      'last max',
      'load 1m',
    ]),
  ];
  for (const engine of engines) {
    const users = Math.max(opts.members, opts.subscribers + 1);
    const t = await startTarget({
      BENCH_ENGINE: engine,
      BENCH_SEED_TOKENS: String(users),
      BENCH_SOCKET_ECHO: '1',
    });
    const tokens = Array.from({ length: users }, (_, i) => `idle-token-${i}`);
    try {
      await groupRun(t, engine, opts, tokens, lines);
      await channelRun(t, engine, opts, tokens, lines);
    } finally {
      await t.stop();
    }
  }
  agent.destroy();
  return lines;
}
