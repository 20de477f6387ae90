// One receiving process of the live chat fan-out bench (bench/livestreams.bench.ts; also the group and
// channel fan-out, bench/groups-fanout.ts): it opens its share of the viewer (or member) sockets, joins
// them to the stream (Kadr) or the room (bare Socket.IO), and records, for every
// message each socket receives, receive time − send time on the machine's wall clock (performance.timeOrigin
// + performance.now(): the same clock in every process of the machine, sub-millisecond). The parent drives it
// over IPC; the latencies go back in one message at the end, so nothing but counting runs while measuring.
//
// The sockets speak Engine.IO 4 / Socket.IO 5 over Node's own WebSocket rather than through socket.io-client:
// the client's decoding of 200,000 deliveries (a JSON parse and an emitter per packet) made the receivers,
// not the server, the machine's main CPU user, and a receiver starved for 20 s missed its pings and was
// dropped. Here a delivery costs one string search: the send time leads the message's content.

export type ReceiverCommand =
  | {
      type: 'open';
      mode: 'kadr' | 'bare';
      url: string;
      /** Kadr: one session token per socket; bare: as many sockets as tokens, joined to `room`. */
      tokens: string[];
      /** Kadr: the live stream every socket joins; none for a group or channel (membership is the user's). */
      streamId?: number;
      room: string;
      /** The counted event; by default `live-stream-message` (Kadr) or `echo` (bare). */
      event?: string;
      /**
       * Answer counted messages with a `message-delivered` receipt of their id as the web client does: a
       * group or channel `new-message` (or the bare relay's copy of one) only when it asks (`"ack":true`,
       * a few members per message). A message with a `temp_id` is the sender's own (its other devices)
       * and is not counted.
       */
      ack?: boolean;
    }
  | { type: 'report' }
  | { type: 'close' };

export type ReceiverReport =
  | { type: 'ready'; sockets: number }
  | { type: 'failed'; error: string }
  | { type: 'count'; received: number; dropped: number }
  | {
      type: 'latencies';
      latencies: number[];
      /** The message number (`#<n>` after the send time) of each latency, in the same order. */
      seqs: number[];
      dropped: Record<string, number>;
    };

const wallNow = () => performance.timeOrigin + performance.now();
const send = (m: ReceiverReport) => process.send?.(m);

const CONTENT = '"content":"';
/** The send time the bench wrote at the start of every message's content: `<wall ms> #<i>`. */
function sentAt(packet: string): number {
  const at = packet.indexOf(CONTENT);
  if (at < 0) return Number.NaN;
  const from = at + CONTENT.length;
  return Number(packet.slice(from, packet.indexOf(' ', from)));
}

/** The message number the bench wrote after the send time: `<wall ms> #<n>`. */
function seqOf(packet: string): number {
  const at = packet.indexOf(' #', packet.indexOf(CONTENT));
  return at < 0 ? Number.NaN : Number.parseInt(packet.slice(at + 2), 10);
}

/** One Socket.IO client on a raw WebSocket: connect with `auth`, answer pings, count event packets. */
class Client {
  private readonly ws: WebSocket;
  private readonly acks = new Map<number, (payload: string) => void>();
  private nextAck = 0;
  onEvent: (packet: string) => void = () => undefined;
  onClose: (reason: string) => void = () => undefined;

  constructor(
    url: string,
    private readonly auth: Record<string, unknown>,
    private readonly ready: { resolve: () => void; reject: (err: Error) => void },
  ) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
    this.ws.onmessage = (e: MessageEvent) => this.packet(String(e.data));
    this.ws.onerror = () => this.ready.reject(new Error('websocket error'));
    this.ws.onclose = (e: CloseEvent) => this.onClose(`close ${e.code}`);
  }

  private packet(p: string) {
    // Engine.IO: 0 open, 2 ping, 4 message; inside a message Socket.IO: 0 connect, 2 event, 3 ack, 4 error.
    if (p === '2') return this.ws.send('3');
    if (p.startsWith('42')) return this.onEvent(p);
    if (p.startsWith('43')) {
      const open = p.indexOf('[');
      this.acks.get(Number(p.slice(2, open)))?.(p.slice(open));
      return;
    }
    if (p.startsWith('0')) return this.ws.send(`40${JSON.stringify(this.auth)}`);
    if (p.startsWith('40')) return this.ready.resolve();
    if (p.startsWith('44')) return this.ready.reject(new Error(`connect refused: ${p.slice(2)}`));
    if (p.startsWith('41')) this.onClose('server namespace disconnect');
  }

  /** Emits a raw Socket.IO packet. */
  send(packet: string) {
    this.ws.send(packet);
  }

  /** Emits an event with an ack and resolves with the ack's arguments as JSON. */
  request(event: string, payload: unknown): Promise<string> {
    const id = this.nextAck++;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.ws.send(`42${id}${JSON.stringify([event, payload])}`);
    });
  }

  close() {
    this.ws.close();
  }
}

function open(url: string, auth: Record<string, unknown>): Promise<Client> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('connect timeout')), 120_000);
    const client: Client = new Client(url, auth, {
      resolve: () => {
        clearTimeout(timer);
        resolve(client);
      },
      reject: (err) => {
        clearTimeout(timer);
        reject(err);
      },
    });
  });
}

const sockets: Client[] = [];
const latencies: number[] = [];
const seqs: number[] = [];
let reported = 0;
const dropped = new Map<string, number>();
let ticker: NodeJS.Timeout | undefined;

async function openAll(cmd: Extract<ReceiverCommand, { type: 'open' }>) {
  for (let start = 0; start < cmd.tokens.length; start += 50) {
    const batch = cmd.tokens.slice(start, start + 50);
    sockets.push(
      ...(await Promise.all(
        batch.map((token) => open(cmd.url, cmd.mode === 'kadr' ? { token } : { room: cmd.room })),
      )),
    );
  }
  // Only the chat messages count (a Kadr socket may hear other events, e.g. presence).
  const event = cmd.event ?? (cmd.mode === 'kadr' ? 'live-stream-message' : 'echo');
  const wanted = `42${JSON.stringify([event])}`.slice(0, -1);
  for (const s of sockets) {
    // A viewer dropped by the server (missed pings on a starved machine) misses what follows: counted, so a
    // "lost" figure can be told apart from messages the server never sent.
    s.onClose = (reason) => dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
    s.onEvent = (packet) => {
      if (!packet.startsWith(wanted)) return;
      const at = wallNow();
      if (cmd.ack) {
        if (packet.includes('"temp_id"')) return;
        // The web client decodes the whole event before it answers: so does this one.
        const [, body] = JSON.parse(packet.slice(2)) as [string, { message: { id: number }; ack?: true }];
        if (body.ack)
          s.send(`42${JSON.stringify(['message-delivered', { message_ids: [body.message.id] }])}`);
      }
      latencies.push(at - sentAt(packet));
      seqs.push(seqOf(packet));
    };
  }
  if (cmd.mode === 'kadr' && cmd.streamId !== undefined)
    await Promise.all(
      sockets.map(async (s) => {
        const ack = await s.request('live-stream-viewer-join', { stream_id: cmd.streamId });
        if (!ack.includes('"ok":true')) throw new Error(`join refused: ${ack}`);
      }),
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
  if (cmd.type === 'report') {
    // What arrived since the last report (one phase of the run); the running count stays cumulative.
    send({
      type: 'latencies',
      latencies: latencies.slice(reported),
      seqs: seqs.slice(reported),
      dropped: Object.fromEntries(dropped),
    });
    reported = latencies.length;
  }
  if (cmd.type === 'close') {
    clearInterval(ticker);
    for (const s of sockets) {
      s.onClose = () => undefined;
      s.close();
    }
    process.disconnect?.();
    setTimeout(() => process.exit(0), 100).unref();
  }
});
// The parent gone (a crash or Ctrl-C): never outlive it.
process.on('disconnect', () => process.exit(0));
