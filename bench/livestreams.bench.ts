import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { ClientToServerEvents, LiveChatMessage, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { cpuMs, row, startTarget } from './lib.ts';
import type { ReceiverCommand, ReceiverReport } from './livestreams-receivers.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const VIEWERS = 1000;
const SENDERS = 20;
const RATE_PER_S = 20;
const SECONDS = 10;
/**
 * The receiving sockets live in this many child processes (LIVESTREAM_BENCH_PROCS), not in the process that
 * sends: one process holding all 1,000 on a 2-core machine measured its own event loop (each message is
 * 1,000 decodes there), not the server's fan-out.
 */
const RECEIVER_PROCS = Math.max(1, Number(process.env.LIVESTREAM_BENCH_PROCS ?? 4));
/** Progress on stderr: the set-up of 1,000 sockets takes minutes on a loaded machine. */
const progress = (what: string) => process.stderr.write(`[livestreams bench] ${what}\n`);
const wallNow = () => performance.timeOrigin + performance.now();

function open(url: string, auth: Record<string, unknown>): Promise<Client> {
  const s: Client = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth,
    reconnection: false,
    forceNew: true,
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
  /** CPU time the server process spent from the first send until the last delivery (ms). */
  serverCpuMs: number;
  /** The same for the receiving processes together: what the measurement itself costs the machine. */
  receiversCpuMs: number;
  dropped: Record<string, number>;
  latencies: number[];
}

/** The receiving processes of one run (Kadr or bare), each with its share of the viewer sockets. */
export class Receivers {
  private readonly children: ChildProcess[] = [];
  private readonly received: number[] = [];
  private readonly droppedNow: number[] = [];

  constructor(private readonly procs = RECEIVER_PROCS) {}

  async open(cmd: Omit<Extract<ReceiverCommand, { type: 'open' }>, 'tokens' | 'type'>, tokens: string[]) {
    const per = Math.ceil(tokens.length / this.procs);
    await Promise.all(
      Array.from({ length: this.procs }, (_, k) => {
        const child = fork(path.join(import.meta.dirname, 'livestreams-receivers.ts'), [], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        this.children.push(child);
        this.received[k] = 0;
        this.droppedNow[k] = 0;
        return new Promise<void>((resolve, reject) => {
          child.on('message', (m: ReceiverReport) => {
            if (m.type === 'ready') resolve();
            if (m.type === 'failed') reject(new Error(`receiver ${k}: ${m.error}`));
            if (m.type === 'count') {
              this.received[k] = m.received;
              this.droppedNow[k] = m.dropped;
            }
          });
          child.once('exit', (code) => reject(new Error(`receiver ${k} exited with ${code}`)));
          child.send({ ...cmd, type: 'open', tokens: tokens.slice(k * per, (k + 1) * per) });
        });
      }),
    );
  }

  /** CPU time (ms) the receiving processes have used so far, together. */
  cpu() {
    return this.children.reduce((sum, child) => sum + cpuMs(child.pid), 0);
  }

  get count() {
    return this.received.reduce((a, b) => a + b, 0);
  }

  /** Every receiver's latencies (ms) and the reasons its sockets were dropped. */
  async collect(): Promise<{ latencies: number[]; seqs: number[]; dropped: Record<string, number> }> {
    const reports = await Promise.all(
      this.children.map(
        (child) =>
          new Promise<Extract<ReceiverReport, { type: 'latencies' }>>((resolve) => {
            const handler = (m: ReceiverReport) => {
              if (m.type !== 'latencies') return;
              child.off('message', handler);
              resolve(m);
            };
            child.on('message', handler);
            child.send({ type: 'report' } satisfies ReceiverCommand);
          }),
      ),
    );
    const dropped: Record<string, number> = {};
    for (const r of reports)
      for (const [reason, n] of Object.entries(r.dropped)) dropped[reason] = (dropped[reason] ?? 0) + n;
    return { latencies: reports.flatMap((r) => r.latencies), seqs: reports.flatMap((r) => r.seqs), dropped };
  }

  async close() {
    await Promise.all(
      this.children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        if (child.connected) child.send({ type: 'close' } satisfies ReceiverCommand);
        // Bounded: a receiver that does not leave by itself is killed (only the processes this bench forked).
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        return exited.finally(() => clearTimeout(kill));
      }),
    );
  }
}

/**
 * Waits until the receivers counted `target` deliveries; late is not lost, so it waits while deliveries
 * still arrive and calls the rest lost once nothing came for `stallMs` (bounded at 2 min).
 */
export async function settle(receivers: Receivers, target: number, stallMs: number) {
  const hardDeadline = performance.now() + 120_000;
  let lastCount = -1;
  let lastProgress = performance.now();
  while (receivers.count < target && performance.now() < hardDeadline) {
    if (receivers.count !== lastCount) {
      lastCount = receivers.count;
      lastProgress = performance.now();
    } else if (performance.now() - lastProgress > stallMs) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Sends RATE_PER_S messages/s for SECONDS, spread over SENDERS senders (each within the default per-user
 * chat limit), and records send → receive at every one of the receivers' sockets.
 */
async function drive(
  receivers: Receivers,
  viewers: number,
  serverPid: number | undefined,
  send: (i: number, sentAt: number) => void,
): Promise<Outcome> {
  const total = RATE_PER_S * SECONDS;
  const cpuBefore = cpuMs(serverPid);
  const receiversBefore = receivers.cpu();
  // Deliveries counted so far (earlier phases): the previous phase drained, so the count is at rest.
  const base = receivers.count;
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / RATE_PER_S;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    send(i, wallNow());
  }
  const expected = total * viewers;
  const target = base + expected;
  // Late is not lost (a starved machine drains for a long time).
  await settle(receivers, target, 15_000);
  const serverCpuMs = cpuMs(serverPid) - cpuBefore;
  const receiversCpuMs = receivers.cpu() - receiversBefore;
  const { latencies, dropped } = await receivers.collect();
  latencies.sort((x, y) => x - y);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    delivered: latencies.length,
    expected,
    serverCpuMs,
    receiversCpuMs,
    dropped,
    latencies,
  };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/**
 * The order of the runs (LIVESTREAM_BENCH_PHASES): A-B-B-A by default, so a load that drifts during the
 * bench (other work on the machine) weighs on both paths alike. Both sets of sockets stay open throughout.
 */
const PHASES = (process.env.LIVESTREAM_BENCH_PHASES ?? 'kadr,bare,bare,kadr')
  .split(',')
  .filter((p): p is 'kadr' | 'bare' => p === 'kadr' || p === 'bare');

/** Pools the phases of one path: percentiles over every delivery, counts and CPU added up. */
function pool(outcomes: Outcome[]): Outcome {
  const latencies = outcomes.flatMap((o) => o.latencies).sort((x, y) => x - y);
  const dropped: Record<string, number> = {};
  for (const o of outcomes)
    for (const [reason, n] of Object.entries(o.dropped)) dropped[reason] = Math.max(dropped[reason] ?? 0, n);
  const sum = (f: (o: Outcome) => number) => outcomes.reduce((a, o) => a + f(o), 0);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    delivered: sum((o) => o.delivered),
    expected: sum((o) => o.expected),
    serverCpuMs: sum((o) => o.serverCpuMs),
    receiversCpuMs: sum((o) => o.receiversCpuMs),
    dropped,
    latencies,
  };
}

/** Live chat fan-out: 1,000 viewers of one stream vs a bare Socket.IO room broadcast, same load. */
export async function livestreamsChatBench(): Promise<string[]> {
  progress('starting the bench server');
  const t = await startTarget({
    BENCH_ENGINE: 'pglite',
    // Viewers, then the senders (their own sessions: a sender is not one of the measured viewers).
    BENCH_SEED_TOKENS: String(VIEWERS + SENDERS),
    BENCH_SOCKET_ECHO: '1',
    // No host ever joins the media room here: without this the stream ends once the host is overdue (a
    // minute), which on a loaded machine happened while the 1,000 sockets were still connecting, and
    // every later message was refused as "stream not found" (counted as lost).
    LIVESTREAM_HOST_TIMEOUT_MS: String(24 * 60 * 60 * 1000),
  });
  const senders: Client[] = [];
  const sets: Receivers[] = [];
  try {
    const res = await fetch(`${t.target.appUrl}/api/v1/livestreams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.target.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'bench' }),
    });
    if (res.status !== 201) throw new Error(`stream start: ${res.status} ${await res.text()}`);
    const streamId = ((await res.json()) as { id: number }).id;
    const viewerTokens = Array.from({ length: VIEWERS }, (_, i) => `idle-token-${i}`);
    const bareUrl = t.target.bareSocketUrl!;

    progress(
      `stream ${streamId} started; ${RECEIVER_PROCS} receiving processes open ${VIEWERS} viewer sockets`,
    );
    const kadrReceivers = new Receivers();
    sets.push(kadrReceivers);
    await kadrReceivers.open({ mode: 'kadr', url: t.target.appUrl, streamId, room: '' }, viewerTokens);
    progress(`${RECEIVER_PROCS} more receiving processes open ${VIEWERS} bare Socket.IO sockets`);
    const bareReceivers = new Receivers();
    sets.push(bareReceivers);
    await bareReceivers.open({ mode: 'bare', url: bareUrl, streamId, room: 'stream' }, viewerTokens);

    const kadrSenders = await Promise.all(
      Array.from({ length: SENDERS }, (_, i) =>
        open(t.target.appUrl, { token: `idle-token-${VIEWERS + i}` }),
      ),
    );
    type Bare = Socket<{ echo: (p: LiveChatMessage) => void }, { relay: (m: unknown) => void }>;
    // The senders sit in a room of their own: like Kadr's, they do not receive what they send.
    const bareSenders = (await Promise.all(
      Array.from({ length: SENDERS }, () => open(bareUrl, { room: 'senders' })),
    )) as unknown as Bare[];
    senders.push(...kadrSenders, ...(bareSenders as unknown as Client[]));

    /** The server's answers to Kadr's senders, by result: a refused message explains a lost one. */
    const acks = new Map<string, number>();
    const phases: Array<{ path: 'kadr' | 'bare'; outcome: Outcome; load: string }> = [];
    for (const [n, path] of PHASES.entries()) {
      const loadAvg = load();
      progress(`phase ${n + 1}/${PHASES.length}: ${path} (load ${loadAvg})`);
      const outcome =
        path === 'kadr'
          ? await drive(kadrReceivers, VIEWERS, t.child.pid, (i, sentAt) =>
              kadrSenders[i % SENDERS]!.emit(
                'live-stream-message',
                // A temp_id per phase: a repeated one is (rightly) stored and sent once.
                { stream_id: streamId, content: `${sentAt} #${i}`, temp_id: `b-${n}-${i}` },
                (ack) => {
                  const key = ack.ok ? 'ok' : ack.code;
                  acks.set(key, (acks.get(key) ?? 0) + 1);
                },
              ),
            )
          : // The same message as Kadr delivers (shape and size), so the rows differ only by the server's work.
            await drive(bareReceivers, VIEWERS, t.child.pid, (i, sentAt) =>
              bareSenders[i % SENDERS]!.emit('relay', {
                to: 'stream',
                payload: {
                  id: i + 1,
                  type: 'live-stream-message',
                  stream_id: streamId,
                  content: `${sentAt} #${i}`,
                  sender_id: 1,
                  sender_name: 'Idle 1000',
                  timestamp: new Date().toISOString(),
                  temp_id: `b-${n}-${i}`,
                } satisfies LiveChatMessage,
              }),
            );
      phases.push({ path, outcome, load: loadAvg });
    }

    const kadr = pool(phases.filter((p) => p.path === 'kadr').map((p) => p.outcome));
    const baseline = pool(phases.filter((p) => p.path === 'bare').map((p) => p.outcome));
    const dropped = (o: Outcome) =>
      Object.entries(o.dropped)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    const line = (name: string, o: Outcome, loadAvg: string) =>
      row([
        name,
        o.p50,
        o.p99,
        o.max,
        o.delivered,
        o.expected - o.delivered,
        o.serverCpuMs,
        o.receiversCpuMs,
        loadAvg,
      ]);
    const label = (path: 'kadr' | 'bare') => (path === 'kadr' ? 'Kadr live chat' : 'bare Socket.IO');
    return [
      `receivers: ${RECEIVER_PROCS} processes × ${Math.ceil(VIEWERS / RECEIVER_PROCS)} sockets per path, both sets open throughout; senders: ${SENDERS} sockets per path in the driving process; send and receive times on the machine's wall clock; phases ${PHASES.join(', ')}`,
      row([
        'path',
        'p50 ms',
        'p99 ms',
        'max ms',
        'delivered',
        'lost',
        'server CPU ms',
        'receivers CPU',
        'load avg',
      ]),
      ...phases.map((p, n) => line(`${n + 1}. ${label(p.path)}`, p.outcome, p.load)),
      line('Kadr, pooled', kadr, '-'),
      line('bare, pooled', baseline, '-'),
      "Kadr: live-stream-message validated, rate-limited, stored, fanned out; bare: a relay that emits the same message to the room (no auth, limit or database); CPU ms from a phase's first send to its last delivery",
      `Kadr/bare (pooled): p50 ×${(kadr.p50 / baseline.p50).toFixed(2)}, p99 ×${(kadr.p99 / baseline.p99).toFixed(2)}, server CPU ×${(kadr.serverCpuMs / baseline.serverCpuMs).toFixed(2)}`,
      `Kadr acks: ${[...acks].map(([k, n]) => `${k} ${n}`).join(', ')}; viewer sockets dropped: Kadr ${dropped(kadr)}, bare ${dropped(baseline)}`,
    ];
  } finally {
    for (const s of senders) s.disconnect();
    for (const r of sets) await r.close();
    await t.stop();
  }
}
