// Group and channel fan-out over sockets, beside a bare Socket.IO room broadcast in the same run:
// a group of N connected members at R messages/s (send → every other member receives), and a channel
// with M connected subscribers (one post → the last subscriber receives it).
//
// The receiving sockets live in child processes (bench/livestreams-receivers.ts), not in the process that
// sends: with 1,000 (or 10,000) receivers here the bench measured its own event loop — the bare relay came
// out three times slower than Kadr. Send and receive times are on the machine's wall clock.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ClientToServerEvents, MessageEvent, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { cpuMs, row, startTarget, type Target } from './lib.ts';
import { Receivers, settle } from './livestreams.bench.ts';
import { connected, inBatches, percentile } from './messenger.bench.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** The bare relay's sender: a copy of a real `new-message` event goes to every socket of the room. */
type EchoSocket = Socket<
  { echo: (p: MessageEvent) => void },
  { relay: (m: { to: string; payload: MessageEvent }) => void }
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

const wallNow = () => performance.timeOrigin + performance.now();
const progress = (what: string) => process.stderr.write(`[groups fan-out bench] ${what}\n`);

/** One measured phase: every delivery's latency, the last receiver of each message, the server's CPU. */
interface Outcome {
  messages: number;
  expected: number;
  latencies: number[];
  /** Per message, the latency of its last receiver. */
  last: number[];
  serverCpuMs: number;
  /** The receiving processes' CPU over the same span: whether the machine or the server is the limit. */
  receiversCpuMs: number;
  dropped: Record<string, number>;
}

/** The receivers' latencies since the last collection, as an outcome of `messages` × `perMessage`. */
async function outcome(
  receivers: Receivers,
  messages: number,
  perMessage: number,
  cpu: { server: number; receivers: number },
): Promise<Outcome> {
  const { latencies, seqs, dropped } = await receivers.collect();
  const lastBySeq = new Map<number, number>();
  latencies.forEach((ms, i) => {
    const seq = seqs[i] as number;
    lastBySeq.set(seq, Math.max(lastBySeq.get(seq) ?? Number.NEGATIVE_INFINITY, ms));
  });
  return {
    messages,
    expected: messages * perMessage,
    latencies: latencies.sort((a, b) => a - b),
    last: [...lastBySeq.values()].sort((a, b) => a - b),
    serverCpuMs: cpu.server,
    receiversCpuMs: cpu.receivers,
    dropped,
  };
}

/**
 * Waits until the server is quiet (under 10 % of a core over half a second, twice in a row; at most a
 * minute): 10,000 sockets that just connected leave presence and audience work behind them, which on a
 * loaded machine still ran under the first posts (one post's last subscriber at 5.5 s, the others at 1).
 */
async function serverQuiet(t: Target) {
  let calm = 0;
  for (let i = 0; i < 120 && calm < 2; i += 1) {
    const before = cpuMs(t.child.pid);
    await sleep(500);
    calm = cpuMs(t.child.pid) - before < 50 ? calm + 1 : 0;
  }
}

/** CPU (ms) of the server and the receiving processes so far, to subtract. */
function cpuNow(t: Target, receivers: Receivers) {
  return { server: cpuMs(t.child.pid), receivers: receivers.cpu() };
}

const cpuSince = (t: Target, receivers: Receivers, before: ReturnType<typeof cpuNow>) => {
  const now = cpuNow(t, receivers);
  return { server: now.server - before.server, receivers: now.receivers - before.receivers };
};

/** Pools phases of one path: percentiles over every delivery, counts and CPU added up. */
function pool(outcomes: Outcome[]): Outcome {
  const dropped: Record<string, number> = {};
  for (const o of outcomes)
    for (const [reason, n] of Object.entries(o.dropped)) dropped[reason] = Math.max(dropped[reason] ?? 0, n);
  const sum = (f: (o: Outcome) => number) => outcomes.reduce((a, o) => a + f(o), 0);
  return {
    messages: sum((o) => o.messages),
    expected: sum((o) => o.expected),
    latencies: outcomes.flatMap((o) => o.latencies).sort((a, b) => a - b),
    last: outcomes.flatMap((o) => o.last).sort((a, b) => a - b),
    serverCpuMs: sum((o) => o.serverCpuMs),
    receiversCpuMs: sum((o) => o.receiversCpuMs),
    dropped,
  };
}

/**
 * Fires `send(seq, wallTime)` at `rate` per second for `seconds`, then waits for `perMessage` deliveries
 * of each, and measures the server's CPU from the first send to the last delivery.
 */
async function drive(
  t: Target,
  receivers: Receivers,
  opts: { rate: number; seconds: number; perMessage: number },
  send: (seq: number, sentAt: number) => void,
): Promise<Outcome> {
  const total = Math.round(opts.rate * opts.seconds);
  const cpuBefore = cpuNow(t, receivers);
  // Deliveries counted so far (earlier phases): the previous phase settled, so the count is at rest.
  const base = receivers.count;
  const started = performance.now();
  for (let seq = 0; seq < total; seq += 1) {
    const wait = started + (seq * 1000) / opts.rate - performance.now();
    if (wait > 0) await sleep(wait);
    send(seq, wallNow());
  }
  await settle(receivers, base + total * opts.perMessage, 15_000);
  return outcome(receivers, total, opts.perMessage, cpuSince(t, receivers, cpuBefore));
}

function appSockets(t: Target, tokens: string[]) {
  return inBatches(tokens.length, 50, (i) => {
    const s: AppSocket = connect(t.target.appUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: tokens[i] },
      reconnection: false,
      forceNew: true,
      timeout: CONNECT_TIMEOUT_MS,
    });
    return connected(s);
  });
}

function bareSenders(t: Target, count: number) {
  return inBatches(count, 50, () => {
    // The senders sit in a room of their own: like Kadr's, a sender's socket is not one of the receivers.
    const s: EchoSocket = connect(t.target.bareSocketUrl as string, {
      transports: ['websocket'],
      auth: { room: 'senders' },
      reconnection: false,
      forceNew: true,
      timeout: CONNECT_TIMEOUT_MS,
    });
    return connected(s);
  });
}

const dropped = (o: Outcome) =>
  Object.entries(o.dropped)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

function summaryRow(name: string, o: Outcome, load: string) {
  return row([
    name,
    o.messages,
    o.expected,
    o.latencies.length,
    o.expected - o.latencies.length,
    percentile(o.latencies, 50),
    percentile(o.latencies, 99),
    percentile(o.last, 50),
    o.last.at(-1) ?? Number.NaN,
    o.serverCpuMs,
    o.receiversCpuMs,
    load,
  ]);
}

/** One real `new-message` event of the group as a member receives it (the bare relay sends a copy). */
async function sampleEvent(t: Target, tokens: string[], groupId: number): Promise<MessageEvent> {
  const [sender, member] = await appSockets(t, tokens.slice(0, 2));
  try {
    const got = new Promise<MessageEvent>((resolve) => member?.once('new-message', resolve));
    // A socket joins its groups' rooms after connecting: a send before the member's join never reaches it
    // (a PostgreSQL run waited for it forever), so it is sent again until one arrives.
    for (let i = 0; ; i += 1) {
      sender?.emit(
        'send-message',
        { group_id: groupId, content: 'bench sample', temp_id: `bench-sample-${i}` },
        () => {},
      );
      const event = await Promise.race([got, sleep(1000).then(() => null)]);
      if (event) return event;
      if (i === 30) throw new Error('the sample message never reached the member');
    }
  } finally {
    sender?.disconnect();
    member?.disconnect();
  }
}

/**
 * The sample event with the bench's `<wall ms> #<seq>` content, as the bare relay sends it: the copy most
 * members get (Kadr asks only a few of them to confirm receipt, so the relay's copy asks nobody).
 */
const withContent = ({ ack: _asked, ...event }: MessageEvent, content: string): MessageEvent => ({
  ...event,
  message: { ...event.message, content },
});

/**
 * The order of the group runs (GROUPS_BENCH_PHASES): A-B-B-A by default, so a load that drifts during the
 * bench weighs on both paths alike. Both sets of receiving sockets stay open throughout.
 */
const PHASES = (process.env.GROUPS_BENCH_PHASES ?? 'kadr,bare,bare,kadr')
  .split(',')
  .filter((p): p is 'kadr' | 'bare' => p === 'kadr' || p === 'bare');

/** GROUPS_BENCH_FANOUT=group|channel runs one of the two (default both). */
const FANOUT_PARTS = (process.env.GROUPS_BENCH_FANOUT ?? 'group,channel').split(',');

/** The sample event of a group of two, for the channel's bare relay when the group phases do not run. */
async function smallGroupEvent(t: Target, tokens: string[]): Promise<MessageEvent> {
  const group = await callApi<{ id: number; inviteToken: string }>(
    t,
    tokens[0] as string,
    'POST',
    '/groups',
    {
      name: 'Образец',
    },
  );
  await callApi(t, tokens[1] as string, 'POST', `/groups/invite/${group.inviteToken}/join`);
  return sampleEvent(t, tokens, group.id);
}

/** Runs the group phases and returns the group's sample event (the channel's bare relay sends it too). */
async function groupRun(
  t: Target,
  engine: string,
  opts: FanoutOptions,
  tokens: string[],
  lines: string[],
): Promise<MessageEvent> {
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

  const sets: Receivers[] = [];
  const senders: Array<{ disconnect: () => void }> = [];
  try {
    progress(`${engine}: receiving processes open ${n} member sockets and ${n} bare sockets`);
    // Every member's socket, the senders' included: a sender's other device gets its message with the
    // temp_id, which the receivers do not count, so each message is expected n − 1 times.
    const kadr = new Receivers();
    sets.push(kadr);
    await kadr.open(
      { mode: 'kadr', url: t.target.appUrl, room: '', event: 'new-message', ack: true },
      tokens.slice(0, n),
    );
    const bare = new Receivers();
    sets.push(bare);
    await bare.open(
      { mode: 'bare', url: t.target.bareSocketUrl as string, room: 'group', ack: true },
      tokens.slice(0, n),
    );
    // The senders are members too (their second device, in this process).
    const kadrSenders = await appSockets(t, tokens.slice(0, opts.senders));
    const relays = await bareSenders(t, opts.senders);
    senders.push(...kadrSenders, ...relays);
    await sleep(3000);
    await serverQuiet(t);

    let failed = 0;
    const reasons = new Set<string>();
    // Send → the sender's ack (the server stored and announced it): where the server's own time shows.
    const acked: number[] = [];
    const kadrSend = (phase: string, record: boolean) => (s: number, sentAt: number) => {
      const at = performance.now();
      kadrSenders[s % opts.senders]?.emit(
        'send-message',
        { group_id: group.id, content: `${sentAt} #${s}`, temp_id: `bench-${engine}-${phase}-${s}` },
        (result) => {
          if (record) acked.push(performance.now() - at);
          if (!result.ok) {
            failed += 1;
            reasons.add(JSON.stringify(result));
          }
        },
      );
    };
    const bareSend = (s: number, sentAt: number) =>
      relays[s % opts.senders]?.emit('relay', {
        to: 'group',
        payload: withContent(event, `${sentAt} #${s}`),
      });

    // Warm-up of both paths (not measured).
    const warm = { rate: opts.rate, seconds: 2 };
    await drive(t, kadr, { ...warm, perMessage: n - 1 }, kadrSend('warm', false));
    await drive(t, bare, { ...warm, perMessage: n }, bareSend);

    const phases: Array<{ path: 'kadr' | 'bare'; outcome: Outcome; load: string }> = [];
    for (const [k, path] of PHASES.entries()) {
      const load = load1();
      progress(`${engine} group phase ${k + 1}/${PHASES.length}: ${path} (load ${load})`);
      const o =
        path === 'kadr'
          ? await drive(t, kadr, { ...opts, perMessage: n - 1 }, kadrSend(String(k), true))
          : await drive(t, bare, { ...opts, perMessage: n }, bareSend);
      phases.push({ path, outcome: o, load });
    }
    const label = (path: 'kadr' | 'bare') => (path === 'kadr' ? `group, ${n}` : `bare room, ${n}`);
    for (const [k, p] of phases.entries())
      lines.push(summaryRow(`${engine} ${k + 1}. ${label(p.path)}`, p.outcome, p.load));
    const pooledKadr = pool(phases.filter((p) => p.path === 'kadr').map((p) => p.outcome));
    const pooledBare = pool(phases.filter((p) => p.path === 'bare').map((p) => p.outcome));
    const ackSorted = acked.sort((a, b) => a - b);
    lines.push(
      summaryRow(`${engine} group, pooled`, pooledKadr, '-') +
        ` (send ack p50 ${percentile(ackSorted, 50).toFixed(0)} ms, p99 ${percentile(ackSorted, 99).toFixed(0)} ms)` +
        (failed > 0 ? ` (${failed} failed sends: ${[...reasons].slice(0, 3).join('; ')})` : ''),
      summaryRow(`${engine} bare room, pooled`, pooledBare, '-'),
      `${engine} group/bare (pooled): p50 ×${(percentile(pooledKadr.latencies, 50) / percentile(pooledBare.latencies, 50)).toFixed(2)}, p99 ×${(percentile(pooledKadr.latencies, 99) / percentile(pooledBare.latencies, 99)).toFixed(2)}, server CPU ×${(pooledKadr.serverCpuMs / pooledBare.serverCpuMs).toFixed(2)}; sockets dropped: group ${dropped(pooledKadr)}, bare ${dropped(pooledBare)}`,
    );
  } finally {
    for (const s of senders) s.disconnect();
    for (const r of sets) await r.close();
  }
  return event;
}

/** Posts one message at a time and waits for every subscriber to receive it before the next. */
async function postOneByOne(
  t: Target,
  receivers: Receivers,
  opts: FanoutOptions,
  post: (seq: number, sentAt: number) => Promise<unknown>,
): Promise<Outcome> {
  const m = opts.subscribers;
  const cpuBefore = cpuNow(t, receivers);
  const base = receivers.count;
  for (let seq = 0; seq < opts.posts; seq += 1) {
    await post(seq, wallNow());
    await settle(receivers, base + m * (seq + 1), 15_000);
  }
  return outcome(receivers, opts.posts, m, cpuSince(t, receivers, cpuBefore));
}

async function channelRun(
  t: Target,
  engine: string,
  opts: FanoutOptions,
  tokens: string[],
  lines: string[],
  // The group's sample event, as the bare relay's message (a channel post is the same event).
  event: MessageEvent,
) {
  const m = opts.subscribers;

  // One path at a time: 20,000 sockets at once would measure the machine's memory, not the fan-out.
  const bare = new Receivers();
  const [relay] = await bareSenders(t, 1);
  try {
    progress(`${engine}: receiving processes open ${m} bare sockets`);
    await bare.open(
      { mode: 'bare', url: t.target.bareSocketUrl as string, room: 'channel', ack: true },
      tokens.slice(0, m),
    );
    const load = load1();
    const o = await postOneByOne(t, bare, opts, async (seq, sentAt) => {
      relay?.emit('relay', { to: 'channel', payload: withContent(event, `${sentAt} #${seq}`) });
    });
    lines.push(summaryRow(`${engine} bare room, ${m}`, o, load));
  } finally {
    relay?.disconnect();
    await bare.close();
  }

  // The owner is the last token; subscribers are the first `m`.
  const owner = tokens[m] as string;
  const channel = await callApi<{ id: number }>(t, owner, 'POST', '/channels', {
    name: 'Бенчмарк-канал',
    slug: `bench_${engine}`,
  });
  await inBatches(m, 50, (i) => callApi(t, tokens[i] as string, 'POST', `/channels/${channel.id}/subscribe`));
  const kadr = new Receivers();
  try {
    progress(`${engine}: receiving processes open ${m} subscriber sockets`);
    await kadr.open(
      { mode: 'kadr', url: t.target.appUrl, room: '', event: 'new-message', ack: true },
      tokens.slice(0, m),
    );
    await sleep(5000);
    await serverQuiet(t);
    const load = load1();
    const o = await postOneByOne(t, kadr, opts, (seq, sentAt) =>
      callApi(t, owner, 'POST', '/messages', {
        channel_id: channel.id,
        content: `${sentAt} #${seq}`,
        temp_id: `bench-post-${engine}-${seq}`,
      }),
    );
    lines.push(
      summaryRow(`${engine} channel, ${m}`, o, load),
      `${engine} channel sockets dropped: ${dropped(o)}`,
    );
  } finally {
    await kadr.close();
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
    `receivers: 4 child processes (LIVESTREAM_BENCH_PROCS) per path, confirming receipt like the web client (only the few members a group or channel message asks); senders in the driving process; wall-clock send → receive; group phases ${PHASES.join(', ')} after a 2 s warm-up of each; expected: n − 1 per group message (the sender's own devices excluded), n per bare one (the bare senders sit in a room of their own)`,
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
      'server CPU ms',
      'receivers CPU ms',
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
      const event = FANOUT_PARTS.includes('group')
        ? await groupRun(t, engine, opts, tokens, lines)
        : await smallGroupEvent(t, tokens);
      if (FANOUT_PARTS.includes('channel')) await channelRun(t, engine, opts, tokens, lines, event);
    } finally {
      await t.stop();
    }
  }
  agent.destroy();
  return lines;
}
