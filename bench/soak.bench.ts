// `npm run bench -- soak`: a bounded soak of the real server. Steady messaging (half over
// the socket, half over HTTP, every user online and acking), feed reads and likes, first without media
// processing, then with a photo every few seconds and a video every minute. Prints, per phase, send → receive
// p50/p99 and the main thread's worst event-loop stall (and the median over 5 s windows of their worst), the
// processing phase's messages split by what was processing when each was sent (a video, only photos,
// nothing), p99 per 5 minutes of the run (so a trend over time is told apart from processing) and the load
// generator's own worst event-loop delay; then the
// server's RSS slope after warm-up (least squares, MB per hour) over the whole run and during processing, for
// RSS and for its native part (RSS − the V8 heap's physical pages, where allocator fragmentation and leaks of
// libvips, the detector or PGlite show), each part's slope over the second half of processing (the V8 heap, the
// WASM memory, compiled code, other anonymous memory, files; sampled every 30 s), the settled RSS (after a full GC) when the quiet phase starts and after the run, and the
// load average. The 5 s samples force no GC: a forced full collection holds the event loop for 100–700 ms, so
// it would be measured as the server's own stalls and in the latencies (it was, before).
//
// Bounded and configurable by environment:
//   SOAK_MINUTES (default 4; the quiet phase is a quarter of it), SOAK_USERS (60), SOAK_RATE (msg/s, 20),
//   SOAK_FEED_RATE (reads/s, 5; every fifth likes, every twentieth comments), SOAK_PHOTO_EVERY (s, 6),
//   SOAK_VIDEO_EVERY (s, 60), SOAK_RECONNECT_EVERY (s, 300: each socket disconnects and connects again once per
//   it, staggered; a message to a user in that moment is counted "to reconnecting", not awaited), SOAK_ENGINES
//   (pglite,postgres), SOAK_ARENAS (glibc MALLOC_ARENA_MAX for the server, 2 as `npm start` sets it; "default"
//   leaves glibc's own), SOAK_ALLOCATOR (jemalloc, preloaded as `npm start` does when libjemalloc2 is
//   installed; glibc to measure without it), SOAK_PGLITE (disk, as `npm start` keeps it; memory for the test
//   suite's in-memory copy, whose files count in the server's RSS), SOAK_HEAP_SNAPSHOTS (a directory: V8 heap
//   snapshots of the server after the warm-up and at the end, and the groups of objects that grew between them,
//   with what holds them; bench/heap-diff.ts).
// Besides the server, every Node process it started (the labeler, the image process, the media launcher) is
// sampled from /proc and reported with its own slope, and the total of all of them: a child that only moved the
// growth out of the server would show there. At the end each one's RSS is broken down by mapping kind (/proc/<pid>/smaps).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { ClientToServerEvents, MessageEvent, ServerToClientEvents } from '@kadr/contract';
import sharp from 'sharp';
import { io as connect, type Socket } from 'socket.io-client';
import { generateVideo } from '../apps/server/src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../apps/server/src/modules/media/processing/ffmpeg.ts';
import { tempDir } from '../apps/server/test/helpers.ts';
import { heapDiff } from './heap-diff.ts';
import { row, startTarget, type Target } from './lib.ts';

type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export interface SoakOptions {
  minutes: number;
  users: number;
  rate: number;
  feedRate: number;
  photoEverySeconds: number;
  videoEverySeconds: number;
  arenas: string;
  allocator: 'jemalloc' | 'glibc';
  /** Every socket disconnects and connects again once per this many seconds (staggered over it); 0: never. */
  reconnectEverySeconds: number;
}

/** Debian's libjemalloc2; `npm start` (scripts/start.mjs) preloads it into the server when it is installed. */
export const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
/** jemalloc's options as `npm start` sets them; a `MALLOC_CONF` in the environment replaces them. */
const JEMALLOC_CONF = 'background_thread:true,narenas:2';

export function soakOptions(): SoakOptions {
  return {
    minutes: num('SOAK_MINUTES', 4),
    users: num('SOAK_USERS', 60),
    rate: num('SOAK_RATE', 20),
    feedRate: num('SOAK_FEED_RATE', 5),
    photoEverySeconds: num('SOAK_PHOTO_EVERY', 6),
    videoEverySeconds: num('SOAK_VIDEO_EVERY', 60),
    reconnectEverySeconds: num('SOAK_RECONNECT_EVERY', 300),
    arenas: process.env.SOAK_ARENAS ?? '2',
    allocator: process.env.SOAK_ALLOCATOR === 'glibc' || !fs.existsSync(JEMALLOC) ? 'glibc' : 'jemalloc',
  };
}

/** The latency timeline's window. */
const WINDOW_MINUTES = 5;

/** p99 per window of the run: all messages, those sent while no job ran, those sent while one did. */
function byWindow(timeline: { t: number; ms: number; busy: boolean }[]): string {
  const windows = new Map<number, { t: number; ms: number; busy: boolean }[]>();
  for (const x of timeline) {
    const w = Math.floor(x.t / (WINDOW_MINUTES * 60));
    const list = windows.get(w) ?? [];
    list.push(x);
    windows.set(w, list);
  }
  return [...windows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([w, list]) => {
      const p = (l: typeof list) =>
        l.length > 0
          ? percentile(
              l.map((x) => x.ms),
              99,
            ).toFixed(0)
          : '–';
      return `${w * WINDOW_MINUTES}′ ${p(list)}/${p(list.filter((x) => !x.busy))}/${p(list.filter((x) => x.busy))}`;
    })
    .join(', ');
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

/** Least-squares slope of (seconds, bytes) samples, in MB per hour. */
export function slopeMbPerHour(samples: { t: number; rss: number }[]): number {
  if (samples.length < 3) return Number.NaN;
  const n = samples.length;
  const mt = samples.reduce((s, x) => s + x.t, 0) / n;
  const mr = samples.reduce((s, x) => s + x.rss, 0) / n;
  let num = 0;
  let den = 0;
  for (const x of samples) {
    num += (x.t - mt) * (x.rss - mr);
    den += (x.t - mt) ** 2;
  }
  return ((num / den) * 3600) / 1024 / 1024;
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** A process's resident set from /proc (Linux), in bytes; 0 when it is gone. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The long-lived Node processes under the server, by role: the entry file each runs (labeler-worker,
 * image-worker, media-spawner). ffmpeg runs come and go within a job and are left out of the slopes.
 */
function nodeChildren(pid: number): Map<string, number> {
  const found = new Map<string, number>();
  const visit = (parent: number) => {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${parent}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let kids: number[] = [];
      try {
        kids = fs
          .readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8')
          .split(' ')
          .filter(Boolean)
          .map(Number);
      } catch {}
      for (const kid of kids) {
        let argv: string[] = [];
        try {
          argv = fs.readFileSync(`/proc/${kid}/cmdline`, 'utf8').split('\0');
        } catch {}
        const script = argv.find((a) => /\.(m?js|ts)$/.test(a) && !a.includes('tsx'));
        if (script && path.basename(argv[0] ?? '').startsWith('node')) {
          found.set(path.basename(script).replace(/\.(m?js|ts)$/, ''), kid);
        }
        visit(kid);
      }
    }
  };
  visit(pid);
  return found;
}

/**
 * RSS by kind of mapping, in MB: glibc's main heap ([heap]), glibc's thread arenas (anonymous, 64 MiB-aligned,
 * at most 64 MiB), WASM memories (PGlite's Postgres in the server, the detector's tfjs in the labeler: V8
 * reserves each one's whole 4 GiB-plus-guard range and opens its used start read-write, so the used part is an
 * anonymous mapping right before a reservation of 1 GiB or more), compiled code (executable anonymous mappings:
 * V8's JIT and WASM code spaces, which grow as functions tier up), other anonymous memory (the V8 heap,
 * jemalloc's extents, libvips' buffers) and file-backed pages (code, mapped files).
 */
export function smapsBreakdown(pid: number): Record<string, number> {
  const out: Record<string, number> = { heap: 0, arenas: 0, wasm: 0, code: 0, anon: 0, files: 0 };
  let text = '';
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return out;
  }
  const maps: { start: bigint; end: bigint; perms: string; name: string; rss: number }[] = [];
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3] ?? '',
        name: head[4] ?? '',
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const last = maps.at(-1);
    if (rss && last) last.rss = Number(rss[1]) / 1024;
  }
  maps.forEach((m, i) => {
    const next = maps[i + 1];
    const size = m.end - m.start;
    const beforeReservation =
      next !== undefined &&
      next.start === m.end &&
      next.perms.startsWith('---') &&
      next.end - next.start >= 1n << 30n;
    const kind =
      m.name === '[heap]'
        ? 'heap'
        : m.name.startsWith('/')
          ? 'files'
          : m.name
            ? 'anon'
            : m.perms.includes('x')
              ? 'code'
              : beforeReservation
                ? 'wasm'
                : m.start % (64n << 20n) === 0n && size <= 64n << 20n
                  ? 'arenas'
                  : 'anon';
    out[kind] = (out[kind] ?? 0) + m.rss;
  });
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] as number);
  return out;
}

/**
 * The server's RSS by part, MB: the V8 heap's physical pages (from V8, since its pages are anonymous mappings like
 * the allocator's), PGlite's WASM memory, compiled code, the rest of its anonymous memory (jemalloc's extents or
 * glibc's arenas, thread stacks, libvips' buffers) and file-backed pages.
 */
export function serverParts(maps: Record<string, number>, heapPhysical: number): Record<string, number> {
  const heap = heapPhysical / 2 ** 20;
  const anonymous = (maps.anon ?? 0) + (maps.arenas ?? 0) + (maps.heap ?? 0);
  return {
    'V8 heap': Math.round(heap),
    wasm: maps.wasm ?? 0,
    code: maps.code ?? 0,
    'other anonymous': Math.round(anonymous - heap),
    files: maps.files ?? 0,
  };
}

/** Each part's least-squares slope over the samples that carry parts. */
function partSlopes(list: { t: number; parts?: Record<string, number> }[]): string {
  const withParts = list.filter((x) => x.parts);
  const names = Object.keys(withParts[0]?.parts ?? {});
  return names
    .map((name) => {
      const series = withParts.map((x) => ({ t: x.t, rss: (x.parts?.[name] ?? 0) * 2 ** 20 }));
      const first = withParts[0]?.parts?.[name] ?? 0;
      const last = withParts.at(-1)?.parts?.[name] ?? 0;
      return `${name} ${slopeMbPerHour(series).toFixed(0)} (${first} → ${last})`;
    })
    .join(', ');
}

interface Media {
  photos: Buffer[];
  video: Buffer;
}

/** Photos of 2–3 Mpx with real detail (noise over a gradient) and a 20 s 720p clip with sound. */
async function makeMedia(): Promise<Media> {
  const dir = tempDir('kadr-soak-media-');
  const photos: Buffer[] = [];
  for (let i = 0; i < 4; i += 1) {
    const width = 1800 + i * 100;
    const height = 1300;
    const noise = await sharp({
      create: {
        width,
        height,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 120, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    photos.push(
      await sharp(noise)
        .tint({ r: 40 + i * 50, g: 120, b: 200 - i * 40 })
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  }
  const file = await generateVideo(findFfmpeg(), path.join(dir, 'soak.mp4'), {
    seconds: 20,
    width: 1280,
    height: 720,
  });
  const video = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return { photos, video };
}

function connected(s: AppSocket): Promise<AppSocket> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

interface Phase {
  latencies: number[];
  /** Latencies of messages sent while at least one upload was processing. */
  busyLatencies: number[];
  /** Latencies of messages sent while a video was processing, and while only photos were. */
  videoLatencies: number[];
  photoLatencies: number[];
  /** Every received message: when it was sent (s since the run started), its latency, whether a job ran. */
  timeline: { t: number; ms: number; busy: boolean }[];
  sent: number;
  failed: number;
  received: number;
  /** Messages whose recipient was reconnecting when they were sent (stored, fetched on reconnect; not awaited live). */
  offline: number;
  comments: number;
  typing: number;
  loopMaxMs: number;
  /** The worst event-loop delay of each 5 s window. */
  windowMaxMs: number[];
  uploads: number;
  uploadsDone: number;
  uploadsFailed: number;
  errors5xx: number;
}

const newPhase = (): Phase => ({
  latencies: [],
  busyLatencies: [],
  videoLatencies: [],
  photoLatencies: [],
  timeline: [],
  sent: 0,
  failed: 0,
  received: 0,
  offline: 0,
  comments: 0,
  typing: 0,
  loopMaxMs: 0,
  windowMaxMs: [],
  uploads: 0,
  uploadsDone: 0,
  uploadsFailed: 0,
  errors5xx: 0,
});

async function soakOne(engine: 'pglite' | 'postgres', opts: SoakOptions, media: Media): Promise<string[]> {
  const env: Record<string, string> = {
    BENCH_ENGINE: engine,
    BENCH_SEED_TOKENS: String(opts.users),
    JOBS_CONCURRENCY: '1',
    // The embedded default keeps PGlite's files on disk (DATA_DIR/pg); in memory they would grow the RSS
    // measured here with every write (SOAK_PGLITE=memory measures that copy).
    BENCH_PGLITE_DISK: process.env.SOAK_PGLITE === 'memory' ? '0' : '1',
  };
  if (process.env.SOAK_HEAP_SNAPSHOTS) env.BENCH_HEAP_SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS;
  if (opts.arenas !== 'default') env.MALLOC_ARENA_MAX = opts.arenas;
  if (opts.allocator === 'jemalloc') {
    env.LD_PRELOAD = JEMALLOC;
    env.MALLOC_CONF = process.env.MALLOC_CONF ?? JEMALLOC_CONF;
  }
  const t: Target = await startTarget(env);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const timers: NodeJS.Timeout[] = [];
  const sockets: AppSocket[] = [];
  try {
    const base = t.target.appUrl;
    const tokens = Array.from({ length: opts.users }, (_, i) => `idle-token-${i}`);
    const ids: number[] = [];
    for (const token of tokens) {
      const res = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      ids.push(((await res.json()) as { user: { id: number } }).user.id);
    }
    const pending = new Map<
      number,
      { at: number; busy: 'video' | 'photo' | null; phase: Phase; to: number }
    >();
    /** Users whose socket is reconnecting: messages to them are not awaited live. */
    const reconnecting = new Set<number>();
    /** Uploads accepted and still processing, by post id. */
    const inFlight = new Map<number, 'photo' | 'video'>();
    const jobKind = () => {
      if (inFlight.size === 0) return null;
      return [...inFlight.values()].includes('video') ? 'video' : 'photo';
    };
    let phase = newPhase();
    /** The run's clock: samples and the latency timeline count from here. */
    const started = performance.now();
    for (let i = 0; i < opts.users; i += 1) {
      const s: AppSocket = connect(base, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token: tokens[i] },
        forceNew: true,
      });
      s.on('new-message', ({ message }: MessageEvent) => {
        if (message.sender_id === ids[i]) return;
        s.emit('message-delivered', { message_ids: [message.id] });
        const seq = Number(message.content.slice(5));
        const p = pending.get(seq);
        if (!p) return;
        pending.delete(seq);
        const ms = performance.now() - p.at;
        p.phase.received += 1;
        p.phase.latencies.push(ms);
        p.phase.timeline.push({ t: (p.at - started) / 1000, ms, busy: p.busy !== null });
        if (p.busy) p.phase.busyLatencies.push(ms);
        if (p.busy === 'video') p.phase.videoLatencies.push(ms);
        if (p.busy === 'photo') p.phase.photoLatencies.push(ms);
      });
      s.on('media-processing', ({ post_id, status }) => {
        if (status !== 'done' && status !== 'failed') return;
        if (!inFlight.delete(post_id)) return;
        if (status === 'done') phase.uploadsDone += 1;
        else phase.uploadsFailed += 1;
      });
      sockets.push(await connected(s));
    }

    const request = (method: string, url: string, token: string, body?: Buffer, type?: string) =>
      new Promise<{ status: number; body: string }>((resolve) => {
        const req = http.request(
          `${base}${url}`,
          {
            method,
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body ? { 'content-type': type ?? 'application/json', 'content-length': body.length } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              if ((res.statusCode ?? 0) >= 500) phase.errors5xx += 1;
              resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
            });
          },
        );
        req.on('error', () => resolve({ status: 0, body: '' }));
        req.end(body);
      });

    let seq = 0;
    const peerOf = (i: number) => (i * 7 + 1) % opts.users;
    const sendOne = () => {
      const sender = seq % opts.users;
      const current = seq;
      seq += 1;
      const body = {
        other_user_id: ids[peerOf(sender)] as number,
        content: `soak ${current}`,
        temp_id: `soak-${current}`,
      };
      const to = peerOf(sender);
      phase.sent += 1;
      if (reconnecting.has(to)) phase.offline += 1;
      else pending.set(current, { at: performance.now(), busy: jobKind(), phase, to });
      if (current % 2 === 0) {
        // The sender types first, as a person does (the server relays it to the peer, rate-limited).
        sockets[sender]?.emit('typing', { other_user_id: body.other_user_id, is_typing: true });
        phase.typing += 1;
        sockets[sender]?.emit('send-message', body, (result) => {
          if (!result.ok) phase.failed += 1;
        });
      } else {
        void request(
          'POST',
          '/api/v1/messages',
          tokens[sender] as string,
          Buffer.from(JSON.stringify(body)),
        ).then((r) => {
          if (r.status !== 200) phase.failed += 1;
        });
      }
    };
    let reads = 0;
    const readOne = () => {
      const who = reads % opts.users;
      reads += 1;
      const nth = reads;
      void request('GET', '/api/v1/media/feed', tokens[who] as string).then((r) => {
        if (r.status !== 200 || nth % 5 !== 0) return;
        const post = (JSON.parse(r.body) as { posts?: { id: number }[] }).posts?.[0];
        if (!post) return;
        // Every fifth read likes the first post; every twentieth also comments on it.
        void request('POST', `/api/v1/media/post/${post.id}/like`, tokens[who] as string);
        if (nth % 20 !== 0) return;
        phase.comments += 1;
        void request(
          'POST',
          `/api/v1/media/post/${post.id}/comment`,
          tokens[who] as string,
          Buffer.from(JSON.stringify({ comment_text: `комментарий ${nth}` })),
        );
      });
    };
    let uploads = 0;
    const uploadOne = (kind: 'photo' | 'video') => {
      // Uploaders rotate over a tenth of the users (the per-user upload limit is 30 per hour).
      const who = (uploads * 7) % Math.max(1, Math.floor(opts.users / 2));
      uploads += 1;
      const boundary = `----soak${uploads}`;
      const data = kind === 'video' ? media.video : (media.photos[uploads % media.photos.length] as Buffer);
      const name = kind === 'video' ? 'v.mp4' : 'p.jpg';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nсоак ${uploads}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
            `Content-Type: ${kind === 'video' ? 'video/mp4' : 'image/jpeg'}\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      phase.uploads += 1;
      void request(
        'POST',
        '/api/v1/media/upload',
        tokens[who] as string,
        body,
        `multipart/form-data; boundary=${boundary}`,
      ).then((r) => {
        if (r.status !== 202) {
          phase.uploadsFailed += 1;
          return;
        }
        inFlight.set((JSON.parse(r.body) as { post: { id: number } }).post.id, kind);
      });
    };

    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timers.push(timer);
      return timer;
    };
    // Steady traffic: sends and reads on 50 ms ticks, so the schedule never waits for answers.
    const tick = 50;
    let owedSends = 0;
    let owedReads = 0;
    every(tick, () => {
      owedSends += (opts.rate * tick) / 1000;
      owedReads += (opts.feedRate * tick) / 1000;
      for (; owedSends >= 1; owedSends -= 1) sendOne();
      for (; owedReads >= 1; owedReads -= 1) readOne();
    });

    // Sockets reconnect, each once per SOAK_RECONNECT_EVERY, spread over it (phones change networks).
    if (opts.reconnectEverySeconds > 0) {
      let next = 0;
      every((opts.reconnectEverySeconds * 1000) / opts.users, () => {
        const i = next % opts.users;
        next += 1;
        const s = sockets[i];
        if (!s) return;
        reconnecting.add(i);
        for (const [seqNo, p] of pending)
          if (p.to === i) {
            pending.delete(seqNo);
            p.phase.offline += 1;
          }
        s.disconnect();
        s.once('connect', () => reconnecting.delete(i));
        s.connect();
      });
    }

    const serverPid = t.child.pid as number;
    const samples: {
      t: number;
      rss: number;
      native: number;
      /** RSS of each Node process the server started, by role (0 while none runs). */
      children: Record<string, number>;
      /** Every sixth sample (30 s): the server's RSS by part, MB (`serverParts`). */
      parts?: Record<string, number>;
      phase: 'warm' | 'quiet' | 'media';
    }[] = [];
    const roles = new Set<string>();
    let label: 'warm' | 'quiet' | 'media' = 'warm';
    const sample = async () => {
      const p = phase;
      const m = await t.request('sample');
      p.loopMaxMs = Math.max(p.loopMaxMs, m.loopMaxMs);
      p.windowMaxMs.push(m.loopMaxMs);
      const children: Record<string, number> = {};
      for (const [role, pid] of nodeChildren(serverPid)) {
        roles.add(role);
        children[role] = (children[role] ?? 0) + rssOf(pid);
      }
      samples.push({
        t: (performance.now() - started) / 1000,
        rss: m.rss,
        native: m.rss - m.heapPhysical,
        children,
        ...(samples.length % 6 === 0
          ? { parts: serverParts(smapsBreakdown(serverPid), m.heapPhysical) }
          : {}),
        phase: label,
      });
    };
    const sampler = every(5000, () => void sample());

    const totalMs = opts.minutes * 60_000;
    const warmMs = Math.min(30_000, totalMs / 8);
    const quietMs = Math.max(30_000, totalMs / 4);
    const mediaMs = Math.max(60_000, totalMs - warmMs - quietMs);
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

    await wait(warmMs);
    // The settled RSS at the start; the delay that full collection causes is then reset with a sample, so
    // it counts in no phase.
    const settledBefore = await t.request('memory');
    // SOAK_HEAP_SNAPSHOTS=<dir>: V8 heap snapshots after the warm-up and at the end, compared below.
    const snapshotBefore = process.env.SOAK_HEAP_SNAPSHOTS ? (await t.request('heap-snapshot')).file : '';
    const breakdownBefore = `server ${JSON.stringify(smapsBreakdown(serverPid))}`;
    await t.request('sample');
    const loadBefore = os.loadavg();
    label = 'quiet';
    const quiet = newPhase();
    phase = quiet;
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    await wait(quietMs);
    const quietClientLoop = clientLoop.max / 1e6;
    clientLoop.reset();

    label = 'media';
    const busy = newPhase();
    phase = busy;
    uploadOne('video');
    every(opts.photoEverySeconds * 1000, () => uploadOne('photo'));
    every(opts.videoEverySeconds * 1000, () => uploadOne('video'));
    await wait(mediaMs);
    const busyClientLoop = clientLoop.max / 1e6;
    clientLoop.disable();
    const loadAfter = os.loadavg();
    for (const timer of timers) clearInterval(timer);
    clearInterval(sampler);
    // Stragglers: messages 3 s, uploads up to 60 s.
    await wait(3000);
    const until = performance.now() + 60_000;
    while (inFlight.size > 0 && performance.now() < until) await wait(500);
    const settledAfter = await t.request('memory');
    const snapshotAfter = snapshotBefore ? (await t.request('heap-snapshot')).file : '';
    const breakdown = [`server ${JSON.stringify(smapsBreakdown(serverPid))}`];
    for (const [role, pid] of nodeChildren(serverPid))
      breakdown.push(`${role} ${mb(rssOf(pid))} MB ${JSON.stringify(smapsBreakdown(pid))}`);

    const after = samples.filter((s) => s.phase !== 'warm');
    const media_ = samples.filter((s) => s.phase === 'media');
    // The second half of processing: past the allocators' and caches' own warm-up, what is left is the trend.
    const late = media_.slice(Math.floor(media_.length / 2));
    const native = (list: typeof samples) => list.map((x) => ({ t: x.t, rss: x.native }));
    const total = (list: typeof samples) =>
      list.map((x) => ({ t: x.t, rss: x.rss + Object.values(x.children).reduce((a, b) => a + b, 0) }));
    // A phase's line counts its messages; a part of it (`stalls` false) counts the received ones it covers.
    const line = (name: string, p: Phase, lat: number[], stalls = true) =>
      row([
        `${engine} ${name}`,
        stalls ? p.sent : '',
        stalls ? p.received : lat.length,
        stalls ? p.offline : '',
        stalls ? p.failed : '',
        percentile(lat, 50),
        percentile(lat, 99),
        stalls ? p.loopMaxMs : '',
        stalls ? percentile(p.windowMaxMs, 50) : '',
        stalls ? `${p.uploadsDone}/${p.uploads}` : '',
        stalls ? p.errors5xx : '',
      ]);
    return [
      row([
        'phase',
        'sent',
        'received',
        'to reconnecting',
        'failed',
        'p50 ms',
        'p99 ms',
        'worst stall ms',
        'median stall ms',
        'uploads ok',
        '5xx',
      ]),
      line('no processing', quiet, quiet.latencies),
      line('with processing', busy, busy.latencies),
      line('  while a job ran', busy, busy.busyLatencies, false),
      line('    a video', busy, busy.videoLatencies, false),
      line('    only photos', busy, busy.photoLatencies, false),
      line(
        '  while none ran',
        busy,
        busy.timeline.filter((x) => !x.busy).map((x) => x.ms),
        false,
      ),
      `${engine}: p99 ms by ${WINDOW_MINUTES}-minute window of the run (all / no job running / a job running): ${byWindow([...quiet.timeline, ...busy.timeline])}`,
      `${engine}: the load generator's own worst event-loop delay ${quietClientLoop.toFixed(0)} ms without processing, ${busyClientLoop.toFixed(0)} ms with it (a late client adds to every latency)`,
      `${engine}: beside the messages, ${quiet.typing + busy.typing} typing events and ${quiet.comments + busy.comments} comments; every socket reconnected once per ${opts.reconnectEverySeconds} s`,
      `${engine}: RSS slope after warm-up ${slopeMbPerHour(after).toFixed(0)} MB/h (native ${slopeMbPerHour(native(after)).toFixed(0)}), during processing ${slopeMbPerHour(media_).toFixed(0)} MB/h (native ${slopeMbPerHour(native(media_)).toFixed(0)}), its second half ${slopeMbPerHour(late).toFixed(0)} MB/h (native ${slopeMbPerHour(native(late)).toFixed(0)}); ${after.length} samples every 5 s, RSS ${mb(after[0]?.rss ?? 0)} → ${mb(after.at(-1)?.rss ?? 0)} MB, settled (after a full GC) ${mb(settledBefore.rss)} → ${mb(settledAfter.rss)} MB, its V8 heap used ${mb(settledBefore.heapUsed)} → ${mb(settledAfter.heapUsed)} MB of ${mb(settledBefore.heapTotal)} → ${mb(settledAfter.heapTotal)} MB; ${opts.allocator}${opts.allocator === 'glibc' ? ` MALLOC_ARENA_MAX=${opts.arenas}` : ` MALLOC_CONF=${process.env.MALLOC_CONF ?? JEMALLOC_CONF}`}`,
      ...[...roles].map((role) => {
        const of = (list: typeof samples) => list.map((x) => ({ t: x.t, rss: x.children[role] ?? 0 }));
        return `${engine}: ${role} process RSS slope after warm-up ${slopeMbPerHour(of(after)).toFixed(0)} MB/h, during processing ${slopeMbPerHour(of(media_)).toFixed(0)} MB/h, its second half ${slopeMbPerHour(of(late)).toFixed(0)} MB/h; RSS ${mb(after[0]?.children[role] ?? 0)} → ${mb(after.at(-1)?.children[role] ?? 0)} MB (0: not running)`;
      }),
      `${engine}: server and its Node children together: RSS slope after warm-up ${slopeMbPerHour(total(after)).toFixed(0)} MB/h, during processing ${slopeMbPerHour(total(media_)).toFixed(0)} MB/h, its second half ${slopeMbPerHour(total(late)).toFixed(0)} MB/h; ${mb(total(after)[0]?.rss ?? 0)} → ${mb(total(after).at(-1)?.rss ?? 0)} MB`,
      `${engine}: RSS by mapping (MB) after warm-up: ${breakdownBefore}; after the run: ${breakdown.join('; ')}`,
      `${engine}: server RSS by part, slope over the second half of processing (MB/h; MB at its start → end): ${partSlopes(late)}`,
      `${engine}: V8 heap spaces (MB, physical) after warm-up ${JSON.stringify(settledBefore.spaces)}; after the run ${JSON.stringify(settledAfter.spaces)}`,
      ...(snapshotAfter ? heapDiff(snapshotBefore, snapshotAfter).map((l) => `${engine}: ${l}`) : []),
      `${engine}: load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} → ${loadAfter.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`,
    ];
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const s of sockets) s.disconnect();
    agent.destroy();
    await t.stop();
  }
}

export async function soakBench(
  engines: Array<'pglite' | 'postgres'> = (process.env.SOAK_ENGINES ?? 'pglite,postgres').split(',') as Array<
    'pglite' | 'postgres'
  >,
  opts: SoakOptions = soakOptions(),
): Promise<string[]> {
  const media = await makeMedia();
  const lines = [
    `${opts.minutes} min per engine: ${opts.users} users online, ${opts.rate} msg/s (half socket, half HTTP), ${opts.feedRate} feed reads/s with likes; then a photo every ${opts.photoEverySeconds} s and a 20 s 720p video every ${opts.videoEverySeconds} s`,
  ];
  for (const engine of engines) lines.push(...(await soakOne(engine, opts, media)));
  return lines;
}
