// One receiving process of the live chat fan-out bench (bench/livestreams.bench.ts): it opens its share of
// the viewer sockets, joins them to the stream (Kadr) or the room (bare Socket.IO), and records, for every
// message each socket receives, receive time − send time on the machine's wall clock (performance.timeOrigin
// + performance.now(): the same clock in every process of the machine, sub-millisecond). The parent drives it
// over IPC; the latencies go back in one message at the end, so nothing but counting runs while measuring.
import type { ClientToServerEvents, LiveChatMessage, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export type ReceiverCommand =
  | {
      type: 'open';
      mode: 'kadr' | 'bare';
      url: string;
      /** Kadr: one session token per socket; bare: as many sockets as tokens, joined to `room`. */
      tokens: string[];
      streamId: number;
      room: string;
    }
  | { type: 'report' }
  | { type: 'close' };

export type ReceiverReport =
  | { type: 'ready'; sockets: number }
  | { type: 'failed'; error: string }
  | { type: 'count'; received: number; dropped: number }
  | { type: 'latencies'; latencies: number[]; dropped: Record<string, number> };

const wallNow = () => performance.timeOrigin + performance.now();
const send = (m: ReceiverReport) => process.send?.(m);

function open(url: string, auth: Record<string, unknown>): Promise<Client> {
  const s: Client = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth,
    reconnection: false,
    forceNew: true,
    // Hundreds of connections on a loaded machine: the default 20 s connect timeout was hit at a load of 70.
    timeout: 120_000,
  });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

const sockets: Client[] = [];
const latencies: number[] = [];
const dropped = new Map<string, number>();
let ticker: NodeJS.Timeout | undefined;

/** The send time the bench wrote at the start of every message: `<wall ms> #<i>`. */
const sentAt = (content: string) => Number(content.slice(0, content.indexOf(' ')));

async function openAll(cmd: Extract<ReceiverCommand, { type: 'open' }>) {
  for (let start = 0; start < cmd.tokens.length; start += 50) {
    const batch = cmd.tokens.slice(start, start + 50);
    sockets.push(
      ...(await Promise.all(
        batch.map((token) => open(cmd.url, cmd.mode === 'kadr' ? { token } : { room: cmd.room })),
      )),
    );
  }
  for (const s of sockets) {
    // A viewer dropped by the server (missed pings on a starved machine) misses what follows: counted, so a
    // "lost" figure can be told apart from messages the server never sent.
    s.on('disconnect', (reason) => dropped.set(reason, (dropped.get(reason) ?? 0) + 1));
    if (cmd.mode === 'kadr')
      s.on('live-stream-message', (m: LiveChatMessage) => latencies.push(wallNow() - sentAt(m.content)));
    else
      (s as unknown as Socket<{ echo: (m: LiveChatMessage) => void }>).on('echo', (m) =>
        latencies.push(wallNow() - sentAt(m.content)),
      );
  }
  if (cmd.mode === 'kadr')
    await Promise.all(
      sockets.map(
        (s) =>
          new Promise<void>((resolve, reject) =>
            s.emit('live-stream-viewer-join', { stream_id: cmd.streamId }, (ack) =>
              ack.ok ? resolve() : reject(new Error(ack.error)),
            ),
          ),
      ),
    );
  ticker = setInterval(() => {
    let lost = 0;
    for (const n of dropped.values()) lost += n;
    send({ type: 'count', received: latencies.length, dropped: lost });
  }, 250);
  send({ type: 'ready', sockets: sockets.length });
}

process.on('message', (cmd: ReceiverCommand) => {
  if (cmd.type === 'open') openAll(cmd).catch((err: unknown) => send({ type: 'failed', error: String(err) }));
  if (cmd.type === 'report') send({ type: 'latencies', latencies, dropped: Object.fromEntries(dropped) });
  if (cmd.type === 'close') {
    clearInterval(ticker);
    for (const s of sockets) s.disconnect();
    process.disconnect?.();
    setTimeout(() => process.exit(0), 100).unref();
  }
});
// The parent gone (a crash or Ctrl-C): never outlive it.
process.on('disconnect', () => process.exit(0));
