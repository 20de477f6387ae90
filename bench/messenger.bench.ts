import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ClientToServerEvents,
  type MessageEvent,
  PAGE_HEADER,
  type ServerToClientEvents,
} from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { promotedBy } from './heap-sample.ts';
import { cpuMs, mainThreadCpuMs, mainThreadWaitMs, row, startTarget, type Target } from './lib.ts';
import { type Pause, recordPauses } from './pauses.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EchoSocket = Socket<
  { echo: (p: { seq: number }) => void },
  { relay: (m: { to: string; payload: { seq: number } }) => void }
>;

export interface MessengerBenchOptions {
  users: number;
  /** Messages per second over all users; each rate is one run. */
  rates: number[];
  seconds: number;
  warmupSeconds: number;
  /**
   * Rounds per rate, interleaved (relay, commit, then each app path): each app path's ratio is taken against its
   * own round's floor, and the verdict is the median round's. One 10 s window's p99 is its 10th–50th slowest
   * message, so a single collection or a neighbour's burst decided it: identical code gave 1.31× and 5.92×.
   */
  rounds?: number;
}

interface Run {
  sent: number;
  /** Sends the server answered with success (HTTP 200 / ack ok); the relay has no answer. */
  answered: number;
  failed: number;
  /** Sends refused with 429 (backpressure) and sent again after Retry-After, as the web outbox does. */
  refused: number;
  received: number;
  latencies: number[];
  /** When each message of `latencies` was sent (`performance.timeOrigin + now()` ms, the server's clock too). */
  sentAt: number[];
  /** Both processes' stalls while the run's sends went out and arrived (`Pause`), when the server records them. */
  pauses: Pause[];
  /** CPU the load generator (this process) used, as a share of one core. */
  clientCpu: number;
  /**
   * CPU the server's main thread used while the measured sends went out, as a share of one core: how full its
   * event loop was. Near 100 % every stall (a collection, a slow statement) becomes a queue.
   */
  serverLoop: number;
  /** CPU the whole server process used over the same span (ms): its event loop, collector and other threads. */
  serverCpuMs: number;
  /**
   * Over the same span, how long the server's main thread and this process's stood runnable in the scheduler's
   * queue while other threads had the cores, each as a share of the span: the machine's part in the latency.
   */
  serverWaited: number;
  clientWaited: number;
}

const newRun = (): Run => ({
  sent: 0,
  answered: 0,
  failed: 0,
  refused: 0,
  received: 0,
  latencies: [],
  sentAt: [],
  pauses: [],
  clientCpu: 0,
  serverLoop: Number.NaN,
  serverCpuMs: Number.NaN,
  serverWaited: Number.NaN,
  clientWaited: Number.NaN,
});

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** Receiver of sender i: a fixed spread so every user both sends and receives. */
const peerOf = (i: number, users: number) => (i * 7 + 1) % users;

export async function inBatches<T>(
  count: number,
  batch: number,
  make: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += batch)
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(batch, count - start) }, (_, k) => make(start + k)),
      )),
    );
  return out;
}

export function connected<S extends Socket>(s: S): Promise<S> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** A phase's sends in flight: seq → send time, turned into a latency when the message arrives. */
export class Tracker {
  pending = new Map<number, number>();
  /** The first seq sent inside the measured window; warm-up stragglers never count. */
  firstMeasured = Number.POSITIVE_INFINITY;
  run = newRun();
  received(seq: number) {
    const at = this.pending.get(seq);
    if (at === undefined) return;
    this.pending.delete(seq);
    if (seq < this.firstMeasured) return;
    this.run.received += 1;
    this.run.latencies.push(performance.now() - at);
    this.run.sentAt.push(performance.timeOrigin + at);
  }
}

/**
 * Fires `send(seq, sender)` at a steady `rate` for `seconds`; returns once sends are done and every one has
 * arrived (or 10 s passed), at least 2 s after the last. Sends go out every 5 ms in small bursts, so the schedule
 * never depends on answers. With `leadIn`, the stream starts that many seconds earlier at the same rate and
 * `run` (its counts, CPU and waits) covers only the sends after it: the measured sends are the middle of a
 * steady stream, not its first after a quiet spell (the caller sets `tracker.firstMeasured` to the first of them).
 */
export async function drive(
  rate: number,
  users: number,
  seconds: number,
  tracker: Tracker,
  run: Run,
  send: (seq: number, sender: number, run: Run) => void,
  firstSeq: number,
  serverPid?: number,
  leadIn = 0,
) {
  let seq = firstSeq;
  const leading = Math.round(rate * leadIn);
  const total = leading + Math.round(rate * seconds);
  const lead = newRun();
  let cpuStart = process.cpuUsage();
  let serverStart = mainThreadCpuMs(serverPid);
  let serverProcessStart = cpuMs(serverPid);
  let serverWaitStart = mainThreadWaitMs(serverPid);
  let clientWaitStart = mainThreadWaitMs(process.pid);
  const start = performance.now();
  let measuredFrom = start;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = (performance.now() - start) / 1000;
      const due = Math.min(total, Math.floor(elapsed * rate)) - (seq - firstSeq);
      for (let k = 0; k < due; k += 1) {
        if (leading > 0 && seq - firstSeq === leading) {
          cpuStart = process.cpuUsage();
          serverStart = mainThreadCpuMs(serverPid);
          serverProcessStart = cpuMs(serverPid);
          serverWaitStart = mainThreadWaitMs(serverPid);
          clientWaitStart = mainThreadWaitMs(process.pid);
          measuredFrom = performance.now();
        }
        const sender = seq % users;
        const into = seq - firstSeq < leading ? lead : run;
        tracker.pending.set(seq, performance.now());
        into.sent += 1;
        send(seq, sender, into);
        seq += 1;
      }
      if (seq - firstSeq >= total) {
        clearInterval(timer);
        const span = performance.now() - measuredFrom;
        run.serverLoop = (mainThreadCpuMs(serverPid) - serverStart) / span;
        run.serverCpuMs = cpuMs(serverPid) - serverProcessStart;
        run.serverWaited = (mainThreadWaitMs(serverPid) - serverWaitStart) / span;
        run.clientWaited = (mainThreadWaitMs(process.pid) - clientWaitStart) / span;
        resolve();
      }
    }, 5);
  });
  // Stragglers get 2 s, and longer (up to 10 s) while any send of this window has not arrived: a warm-up's backlog
  // (1,000 chats opened at once) must drain before the measured window starts, or the window measures its queue.
  const waited = performance.now();
  await sleep(2000);
  const inFlight = () => [...tracker.pending.keys()].some((s) => s >= firstSeq && s < seq);
  while (inFlight() && performance.now() - waited < 10_000) await sleep(50);
  const cpu = process.cpuUsage(cpuStart);
  run.clientCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - measuredFrom);
  return seq;
}

/**
 * Seconds of unmeasured traffic at the window's rate directly before each measured window (the floor's too): at
 * least a second, and long enough for every user to send once, as each would at that rate without a pause.
 */
const leadInSeconds = (users: number, rate: number) => Math.max(1, users / rate);

/** Within this factor of the floor (relay p99 + one commit's p99, same run) an app path meets the aim. */
const FLOOR_AIM = 1.5;

const p99Of = (run: Run) =>
  percentile(
    [...run.latencies].sort((a, b) => a - b),
    99,
  );

const verdict = (ratio: number) => `${ratio.toFixed(2)}× ${ratio <= FLOOR_AIM ? 'met' : 'MISSED'}`;

function report(name: string, run: Run, floor?: number): string {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  return row([
    name,
    run.sent,
    run.answered === 0 && run.failed === 0 ? '-' : run.answered,
    run.received,
    percentile(sorted, 50),
    p99,
    sorted.at(-1) ?? 0,
    `${Math.round(run.clientCpu * 100)}%`,
    Number.isNaN(run.serverLoop) ? '' : `${Math.round(run.serverLoop * 100)}%`,
    Number.isNaN(run.serverWaited)
      ? ''
      : `${(run.serverWaited * 100).toFixed(1)}% / ${(run.clientWaited * 100).toFixed(1)}%`,
    floor === undefined ? '' : floor,
    floor === undefined ? '' : verdict(p99 / floor),
    (os.loadavg()[0] as number).toFixed(1),
  ]);
}

/**
 * How much of some long loop turns the thread ran: `running 40 %` says that 60 % of their time it stood in the
 * scheduler's queue (or in a system call), the machine's share of the stall rather than the work's.
 */
function running(turns: Pause[]): string {
  const ms = turns.reduce((sum, p) => sum + p.ms, 0);
  const cpu = turns.reduce((sum, p) => sum + (p.cpuMs ?? 0), 0);
  return `(running ${Math.round((cpu / ms) * 100)} %)`;
}

/** Slowest messages sent less than this apart belong to one episode. */
const EPISODE_GAP_MS = 300;
/** An episode is named from this many of the slowest hundredth up; fewer are scattered single delays. */
const EPISODE_SENDS = 5;
/** A stall this long before an episode's first send still delayed it (the send waited behind it). */
const EPISODE_LEAD_MS = 150;

/**
 * What decided a run's p99: its slowest hundredth grouped into episodes by send time, each with the stalls
 * (collections, long loop turns) of the server's thread and of this one from just before its first send to its
 * last arrival. A mark-compact or a long turn in most episodes says the tail is a thread's pauses, not the send
 * path's cost.
 */
export function episodes(run: Run): string {
  const p99 = p99Of(run);
  const slow = run.latencies
    .map((ms, i) => ({ at: run.sentAt[i] as number, ms }))
    .filter((m) => m.ms >= p99)
    .sort((a, b) => a.at - b.at);
  const groups: Array<typeof slow> = [];
  for (const m of slow) {
    const last = groups.at(-1);
    if (last && m.at - (last.at(-1) as (typeof slow)[number]).at < EPISODE_GAP_MS) last.push(m);
    else groups.push([m]);
  }
  const start = Math.min(...run.sentAt);
  const found = groups.filter((g) => g.length >= EPISODE_SENDS);
  const named = found.map((g) => {
    const from = (g[0] as (typeof slow)[number]).at;
    const until = Math.max(...g.map((m) => m.at + m.ms));
    const during = run.pauses.filter((p) => p.at >= from - EPISODE_LEAD_MS && p.at <= until);
    const byKind = new Map<string, Pause[]>();
    for (const p of during) {
      const kind = `${p.where === 'bench' ? "bench's " : ''}${p.kind}`;
      byKind.set(kind, [...(byKind.get(kind) ?? []), p]);
    }
    const stalls = [...byKind]
      .map(([kind, ps]) => {
        const longest = `${ps.length > 1 ? `${ps.length} ` : ''}${kind} ≤ ${Math.round(Math.max(...ps.map((p) => p.ms)))} ms`;
        return ps.every((p) => p.cpuMs !== undefined) ? `${longest} ${running(ps)}` : longest;
      })
      .join(', ');
    const max = Math.round(Math.max(...g.map((m) => m.ms)));
    return `+${((from - start) / 1000).toFixed(1)} s ${g.length} sends ≤ ${max} ms (${stalls || 'no stall'})`;
  });
  const scattered = slow.length - found.flat().length;
  return `    slowest 1 %: ${named.length === 0 ? 'no episode' : named.join('; ')}${scattered > 0 ? `; ${scattered} scattered` : ''}`;
}

/** A second CPU-heavy process on the machine (MESSENGER_BENCH_BUSY=1): one busy loop beside the database. */
function startBusyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** Servers started with BENCH_RECORD_PAUSES=1: they answer `pauses` (an older commit's server would not). */
const recording = new WeakSet<Target>();
/** This process's own stalls: a collection here delays the arrivals it times. */
let ownPauses: Pause[] | null = null;

/** Runs `measure` and gives its run both processes' stalls from its start (when the server records them). */
async function withPauses(t: Target, measure: () => Promise<Run>): Promise<Run> {
  if (!recording.has(t)) return measure();
  ownPauses ??= recordPauses('bench');
  await t.request('pauses');
  ownPauses.splice(0);
  const run = await measure();
  run.pauses = [...(await t.request('pauses')).pauses, ...ownPauses.splice(0)];
  return run;
}

/** Runs warm-up then the measured window of one phase; answers the next free seq. */
async function phase(
  opts: MessengerBenchOptions,
  rate: number,
  tracker: Tracker,
  send: (seq: number, sender: number, run: Run) => void,
  seq: number,
  serverPid?: number,
  // Called as the measured window's lead-in starts (after the warm-up and its collection).
  atWindow?: () => Promise<unknown>,
) {
  const warm = newRun();
  // Long enough for every user to send once: opening 1,000 chats is not the steady send path.
  const warmup = Math.max(opts.warmupSeconds, opts.users / rate);
  const afterWarmup = await drive(rate, opts.users, warmup, tracker, warm, send, seq);
  // The window starts on a collected heap here, so that none of this process's mark-compacts lands inside it
  // (bench/run.ts, LOAD_GENERATOR_FLAGS). The collection takes ~30 ms and its sweeping goes on in V8's threads on
  // the same cores: the window waits a second for it. The server's collections are what is measured, and stay in.
  // After that quiet the window is led in by the same traffic, not counted, until every user has sent once: a
  // user's first send after a pause meets that user's state gone cold (its first 7–16 sends took 7–12 ms against a
  // p50 of ~2 ms, with a one-second lead-in too), which a server under a steady rate does not meet, and the window
  // measures the steady rate (docs/adr/0055, fifty-fifth session).
  if (globalThis.gc) {
    globalThis.gc();
    await sleep(1000);
  }
  await atWindow?.();
  const leadIn = leadInSeconds(opts.users, rate);
  tracker.firstMeasured = afterWarmup + Math.round(rate * leadIn);
  return drive(rate, opts.users, opts.seconds, tracker, tracker.run, send, afterWarmup, serverPid, leadIn);
}

/** Baseline: the same traffic pattern through a bare Socket.IO relay (no HTTP, auth or database). */
async function relayRun(t: Target, opts: MessengerBenchOptions, rate: number) {
  const tracker = new Tracker();
  const sockets = await inBatches(opts.users, 200, (i) => {
    const s: EchoSocket = connect(t.target.bareSocketUrl as string, {
      transports: ['websocket'],
      auth: { room: String(i) },
      reconnection: false,
      forceNew: true,
    });
    s.on('echo', ({ seq }) => tracker.received(seq));
    return connected(s);
  });
  try {
    return await withPauses(t, async () => {
      await phase(
        opts,
        rate,
        tracker,
        (seq, sender) =>
          sockets[sender]?.emit('relay', { to: String(peerOf(sender, opts.users)), payload: { seq } }),
        0,
        t.child.pid,
      );
      return tracker.run;
    });
  } finally {
    for (const s of sockets) s.disconnect();
  }
}

/**
 * Waits until the server answers a database-backed request quickly three times in a row (at most 20 s):
 * connecting or dropping 1,000 sockets queues presence work (audience lookups, last_seen writes) that
 * is not the send path and must not land inside a measured window.
 */
async function settle(t: Target, token: string) {
  let fast = 0;
  const until = performance.now() + 20_000;
  while (fast < 3 && performance.now() < until) {
    const start = performance.now();
    const res = await fetch(`${t.target.appUrl}/api/v1/messages/chats`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    fast = performance.now() - start < 30 ? fast + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The app: every user online with one socket that acks each incoming message with `message-delivered`,
 * as the web client does. Sockets stay connected across runs; `current` names the run receiving.
 */
async function appClients(t: Target, users: number, ids: number[], tokens: string[]) {
  const state: { current: Tracker | null } = { current: null };
  const sockets = await inBatches(users, 200, (i) => {
    const s: AppSocket = connect(t.target.appUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      // Its page's id, as the web app's handshake names it (a send of that page over HTTP is not echoed to it).
      auth: { token: tokens[i], page: benchPage(i) },
      reconnection: false,
      forceNew: true,
    });
    s.on('new-message', ({ message }: MessageEvent) => {
      if (message.sender_id === ids[i]) return; // the sender's own devices get it too
      s.emit('message-delivered', { message_ids: [message.id] });
      state.current?.received(Number(message.content.slice(6)));
    });
    return connected(s);
  });
  await settle(t, tokens[0] as string);
  return { sockets, state };
}

/** User `i`'s page, as the web app names a page in its socket's handshake and its writes' `PAGE_HEADER`. */
const benchPage = (i: number) => `bench-page-${i}`;

/** App runs so far in this process: each names its messages' temp_ids apart. */
let appRuns = 0;

/** Sends over HTTP `POST /messages` or the socket's `send-message`. */
async function appRun(
  t: Target,
  opts: MessengerBenchOptions,
  rate: number,
  clients: Awaited<ReturnType<typeof appClients>>,
  ids: number[],
  tokens: string[],
  via: 'http' | 'socket',
) {
  const tracker = new Tracker();
  clients.state.current = tracker;
  // Every run's sends are new messages: a temp_id seen before is a resend, which the server answers and stores once.
  appRuns += 1;
  const body = (seq: number, sender: number) => ({
    other_user_id: ids[peerOf(sender, opts.users)] as number,
    content: `bench ${seq}`,
    temp_id: `bench-${via}-${rate}-${appRuns}-${seq}`,
  });
  // node:http with a bounded keep-alive pool: far less client CPU per request than fetch (undici).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const overHttp = (seq: number, sender: number, run: Run): void => {
    const payload = JSON.stringify(body(seq, sender));
    const req = http.request(
      `${t.target.appUrl}/api/v1/messages`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${tokens[sender]}`,
          [PAGE_HEADER]: benchPage(sender),
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) run.answered += 1;
          else if (res.statusCode === 429) {
            // Backpressure: the web outbox keeps the message and sends it again after Retry-After.
            run.refused += 1;
            const after = Number(res.headers['retry-after'] ?? 1);
            setTimeout(() => overHttp(seq, sender, run), after * 1000);
          } else run.failed += 1;
        });
      },
    );
    req.on('error', () => {
      run.failed += 1;
    });
    req.end(payload);
  };
  const overSocket = (seq: number, sender: number, run: Run): void => {
    clients.sockets[sender]?.emit('send-message', body(seq, sender), (result) => {
      if (result.ok) run.answered += 1;
      else if (result.status === 429) {
        run.refused += 1;
        setTimeout(() => overSocket(seq, sender, run), (result.retry_after ?? 1) * 1000);
      } else run.failed += 1;
    });
  };
  // The sample covers the measured window and its lead-in, not the warm-up: that opens 1,000 chats, a backlog that is
  // not the steady path.
  const sampleHeap = Boolean(process.env.BENCH_SERVER_HEAP_SAMPLE);
  const startSampling = sampleHeap ? () => t.request('heap-sampling', { action: 'start' }) : undefined;
  await withPauses(t, async () => {
    await phase(opts, rate, tracker, via === 'http' ? overHttp : overSocket, 0, t.child.pid, startSampling);
    return tracker.run;
  });
  if (sampleHeap) {
    const { file } = await t.request('heap-sampling', { action: 'stop', label: `${rate}-${via}` });
    if (file) console.log(`heap sample ${rate}/s ${via}:\n${promotedBy(file, 20).join('\n')}`);
  }
  agent.destroy();
  clients.state.current = null;
  await settle(t, tokens[0] as string);
  return tracker.run;
}

/** Send → receive latency over sockets for each engine and rate: the app over HTTP and over its socket, vs a bare relay. */
export async function messengerBench(
  engines: Array<'pglite' | 'postgres'>,
  opts: MessengerBenchOptions = {
    users: 1000,
    // e.g. MESSENGER_BENCH_RATES=500 for one rate only.
    rates: (process.env.MESSENGER_BENCH_RATES ?? '100,500').split(',').map(Number),
    seconds: 10,
    warmupSeconds: 2,
    rounds: Number(process.env.MESSENGER_BENCH_ROUNDS ?? 3),
  },
  // MESSENGER_BENCH_VIA=http measures a server without the socket send (e.g. an older commit).
  paths: Array<'http' | 'socket'> = (process.env.MESSENGER_BENCH_VIA ?? 'http,socket').split(',') as Array<
    'http' | 'socket'
  >,
): Promise<string[]> {
  const lines = [
    row([
      'path',
      'sent',
      'answered',
      'received',
      'p50 ms',
      'p99 ms',
      'max ms',
      'client cpu',
      'server loop',
      'waited s / b',
      'floor p99 ms',
      'p99 / floor',
      'load',
    ]),
  ];
  // MESSENGER_BENCH_BUSY=1 (or =postgres / =pglite): a busy loop beside the database for that engine's runs.
  const busyFor = (engine: string) => ['1', 'all', engine].includes(process.env.MESSENGER_BENCH_BUSY ?? '');
  for (const engine of engines) {
    const busy = busyFor(engine) ? startBusyLoop() : null;
    const t = await startTarget({
      BENCH_ENGINE: engine,
      BENCH_SEED_TOKENS: String(opts.users),
      BENCH_SOCKET_ECHO: '1',
      BENCH_RECORD_PAUSES: '1',
    });
    recording.add(t);
    const label = `${engine}${busy ? '+busy' : ''}`;
    try {
      const tokens = Array.from({ length: opts.users }, (_, i) => `idle-token-${i}`);
      const ids = await inBatches(opts.users, 50, async (i) => {
        const res = await fetch(`${t.target.appUrl}/api/v1/auth/me`, {
          headers: { authorization: `Bearer ${tokens[i]}` },
        });
        return ((await res.json()) as { user: { id: number } }).user.id;
      });
      const rounds = opts.rounds ?? 1;
      const clients = await appClients(t, opts.users, ids, tokens);
      try {
        for (const rate of opts.rates) {
          // Per app path, each round's p99, floor and ratio: the summary takes the median round's.
          const measuredBy = new Map<string, Array<{ p99: number; floor: number }>>();
          for (let round = 1; round <= rounds; round += 1) {
            const tag = rounds > 1 ? ` #${round}` : '';
            // The floor of an acknowledged message: the bare relay's p99 plus one durable commit's p99, both
            // measured in this round, just before the app's paths.
            const relay = await relayRun(t, opts, rate);
            const commits = (
              await t.request('commit-floor', {
                rate,
                seconds: opts.seconds,
                leadIn: leadInSeconds(opts.users, rate),
              })
            ).latencies.sort((a, b) => a - b);
            const floor = p99Of(relay) + percentile(commits, 99);
            lines.push(report(`${label} ${rate}/s relay${tag}`, relay), episodes(relay));
            lines.push(
              row([
                `${label} ${rate}/s commit${tag}`,
                commits.length,
                '-',
                '-',
                percentile(commits, 50),
                percentile(commits, 99),
                commits.at(-1) ?? 0,
                '',
                '',
                floor,
                'floor = relay + commit',
                (os.loadavg()[0] as number).toFixed(1),
              ]),
            );
            // The relay's 1,000 connections have just closed: the server is quiet again before the app's paths.
            await settle(t, tokens[0] as string);
            for (const via of paths) {
              const run = await appRun(t, opts, rate, clients, ids, tokens, via);
              measuredBy.set(via, [...(measuredBy.get(via) ?? []), { p99: p99Of(run), floor }]);
              lines.push(
                report(`${label} ${rate}/s ${via}${tag}`, run, floor) +
                  (run.failed > 0 ? ` (${run.failed} failed sends)` : '') +
                  (run.refused > 0 ? ` (${run.refused} refused 429, sent again)` : ''),
                episodes(run),
              );
            }
          }
          if (rounds > 1)
            for (const [via, measured] of measuredBy) {
              const byRatio = [...measured].sort((a, b) => a.p99 / a.floor - b.p99 / b.floor);
              const chosen = byRatio[Math.floor(byRatio.length / 2)] as { p99: number; floor: number };
              lines.push(
                row([
                  `${label} ${rate}/s ${via} median of ${rounds}`,
                  '',
                  '',
                  '',
                  '',
                  chosen.p99,
                  '',
                  '',
                  '',
                  chosen.floor,
                  verdict(chosen.p99 / chosen.floor),
                  (os.loadavg()[0] as number).toFixed(1),
                ]),
              );
            }
        }
      } finally {
        for (const s of clients.sockets) s.disconnect();
      }
    } finally {
      await t.stop();
      busy?.kill('SIGKILL');
    }
  }
  return lines;
}

export interface MessengerCost {
  via: 'http' | 'socket';
  p50: number;
  p99: number;
  /** Server CPU (ms) per message sent in the measured window: what each send costs the app. */
  cpuPerMessage: number;
  failed: number;
}

/**
 * One server (this checkout's, or `root`'s) under the messenger's steady send load, over HTTP and the socket:
 * latency and the server's CPU per message. The reach bench runs it against two commits in turn.
 */
export async function messengerCost(
  engine: 'pglite' | 'postgres',
  opts: MessengerBenchOptions,
  root?: string,
): Promise<MessengerCost[]> {
  const t = await startTarget(
    { BENCH_ENGINE: engine, BENCH_SEED_TOKENS: String(opts.users), BENCH_SOCKET_ECHO: '1' },
    root,
  );
  try {
    const tokens = Array.from({ length: opts.users }, (_, i) => `idle-token-${i}`);
    const ids = await inBatches(opts.users, 50, async (i) => {
      const res = await fetch(`${t.target.appUrl}/api/v1/auth/me`, {
        headers: { authorization: `Bearer ${tokens[i]}` },
      });
      return ((await res.json()) as { user: { id: number } }).user.id;
    });
    const clients = await appClients(t, opts.users, ids, tokens);
    const costs: MessengerCost[] = [];
    try {
      for (const rate of opts.rates)
        for (const via of ['http', 'socket'] as const) {
          const run = await appRun(t, opts, rate, clients, ids, tokens, via);
          const sorted = [...run.latencies].sort((a, b) => a - b);
          costs.push({
            via,
            p50: percentile(sorted, 50),
            p99: percentile(sorted, 99),
            // Over the measured sends only: not the warm-up's new chats, nor the lead-in.
            cpuPerMessage: run.serverCpuMs / Math.max(1, run.sent),
            failed: run.failed,
          });
        }
    } finally {
      for (const s of clients.sockets) s.disconnect();
    }
    return costs;
  } finally {
    await t.stop();
  }
}
