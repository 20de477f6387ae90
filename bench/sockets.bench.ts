import { existsSync } from 'node:fs';
import os from 'node:os';
import type { ClientToServerEvents, ServerToClientEvents } from '@kadr/contract';
import { io as connect, type Socket } from 'socket.io-client';
import { heapDiff } from './heap-diff.ts';
import { row, startTarget, type Target } from './lib.ts';
import { smapsBreakdown } from './soak.bench.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const AIM_PER_GIB = 80_000;

async function open(url: string, from: number, count: number, into: ClientSocket[]) {
  const batch = 50;
  for (let start = from; start < from + count; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, from + count - start) }, (_, i) => {
        const s: ClientSocket = connect(url, {
          path: '/socket.io',
          transports: ['websocket'],
          // A page id of the web app's length (32 hex digits), which the server keeps per socket.
          auth: { token: `idle-token-${start + i}`, page: (start + i).toString(16).padStart(32, '0') },
          reconnection: false,
          forceNew: true,
          // A loaded shared machine takes far longer than the client's default 20 s to accept 200 at once.
          timeout: 180_000,
        });
        into.push(s);
        return new Promise<void>((resolve, reject) => {
          s.once('connect', () => resolve());
          s.once('connect_error', reject);
        });
      }),
    );
  }
}

/** jemalloc as `npm start` preloads it (scripts/start.mjs), when installed. */
const JEMALLOC = ['/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', '/usr/lib/libjemalloc.so.2'].find((f) =>
  existsSync(f),
);

/** V8's memory reducer starts 8 s after the last collection of a busy phase; its two reducing collections take ~1 s. */
const QUIET_MS = 20_000;

/**
 * The server's memory once it stopped moving, as an idle server holds it: after `QUIET_MS` without traffic (V8's
 * memory reducer then compacts the old generation and gives back its emptied pages), then until the RSS changed by
 * less than 1 MiB between two samples 2 s apart (jemalloc hands freed pages back over seconds; at most 40 s).
 * Not a forced `gc()`: that collection does not compact, and left 9–14 KiB of old-space pages per socket for 9 KiB
 * of objects, 52,000–108,000 sockets per GiB from run to run (ADR 0045's addendum).
 */
async function settled(t: Target) {
  await new Promise((r) => setTimeout(r, QUIET_MS));
  let last = await t.request('sample');
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = await t.request('sample');
    if (Math.abs(now.rss - last.rss) < 2 ** 20) break;
    last = now;
  }
  // MB resident in PGlite's WASM memory (Postgres' own heap and buffers; it grows and never shrinks).
  const parts = smapsBreakdown(t.child.pid as number);
  return { ...last, parts, wasmMb: parts.wasm ?? 0 };
}

/** The growth per socket of each part of the RSS (smaps) and of each V8 heap space's resident pages, KiB. */
function perSocketParts(
  before: Awaited<ReturnType<typeof settled>>,
  after: Awaited<ReturnType<typeof settled>>,
  added: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  const grow = (name: string, mb: number) => {
    out[name] = Math.round(((mb * 1024) / added) * 100) / 100;
  };
  for (const [name, mb] of Object.entries(after.parts)) grow(name, mb - (before.parts[name] ?? 0));
  for (const [name, mb] of Object.entries(after.spaces)) grow(name, mb - (before.spaces[name] ?? 0));
  return out;
}

/**
 * Idle authenticated sockets held per GiB of server memory: the RSS growth per socket from `warm` to `count`
 * connections (the first ones load code and size the server's shared tables), and the V8 heap's part of it
 * (live objects after a full collection). Measured with the allocator `npm start` runs the server with
 * (jemalloc, when installed) and with glibc's malloc, and on the server as `npm start` runs it: its V8 flags
 * (its 8 MB semi-spaces: with V8's default ones the young generation grew to 90–125 MB of resident pages while
 * 9,000 sockets connected, which `npm start` never holds) and PGlite's files on disk (in memory, the session's
 * `last_used_at` that each handshake writes grows the database's files in the server's memory, ~2 KiB per
 * socket). Both counted in the figure before (jemalloc 17 KiB per socket, 9.8 KiB without them).
 * BENCH_HEAP_SNAPSHOTS=<dir> also diffs heap snapshots taken before and after 1,000 more sockets and prints
 * what each socket holds, by constructor and retainer (bench/heap-diff.ts). `wasm KiB/sock` is the part of the
 * growth resident in PGlite's WASM memory (Postgres' heap: its caches, prepared statements; bench/soak.bench.ts
 * `smapsBreakdown`). SERVER_MEMORY=fast in the environment measures the server as that setting runs it.
 */
export async function socketsBench(count = 10_000, warm = 1000): Promise<string[]> {
  const lines = [
    row([
      'allocator',
      'sockets',
      'rss warm MiB',
      'rss after MiB',
      'KiB/socket',
      'heap KiB/sock',
      'wasm MiB',
      'wasm KiB/sock',
      'sockets/GiB',
      'aim',
      'load',
    ]),
  ];
  const allocators: Array<{ name: string; env: Record<string, string> }> = [
    ...(JEMALLOC
      ? [
          {
            name: 'jemalloc (npm start)',
            env: { LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'background_thread:true,narenas:2' },
          },
        ]
      : []),
    { name: 'glibc', env: { LD_PRELOAD: '', MALLOC_ARENA_MAX: '2' } },
  ];
  for (const allocator of allocators) {
    const t = await startTarget({
      BENCH_ENGINE: 'pglite',
      BENCH_PGLITE_DISK: '1',
      BENCH_SEED_TOKENS: String(count + 1000),
      ...allocator.env,
    });
    const sockets: ClientSocket[] = [];
    try {
      const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
      await open(t.target.appUrl, 0, warm, sockets);
      if (snapshots && allocator === allocators[0]) {
        const first = await t.request('heap-snapshot');
        await open(t.target.appUrl, sockets.length, 1000, sockets);
        await new Promise((r) => setTimeout(r, 2000));
        const second = await t.request('heap-snapshot');
        lines.push('heap snapshot diff, 1,000 idle sockets:', ...heapDiff(first.file, second.file, 25, 6));
      }
      const before = await settled(t);
      await open(t.target.appUrl, sockets.length, count - sockets.length, sockets);
      const after = await settled(t);
      const added = after.sockets - before.sockets;
      const perSocketBytes = (after.rss - before.rss) / added;
      const heapPerSocket = (after.heapUsed - before.heapUsed) / added;
      const perGiB = 1024 ** 3 / perSocketBytes;
      lines.push(
        row([
          allocator.name,
          after.sockets,
          before.rss / 2 ** 20,
          after.rss / 2 ** 20,
          perSocketBytes / 1024,
          heapPerSocket / 1024,
          after.wasmMb,
          ((after.wasmMb - before.wasmMb) * 1024) / added,
          Math.round(perGiB),
          perGiB >= AIM_PER_GIB ? `met (≥ ${AIM_PER_GIB})` : `MISSED (≥ ${AIM_PER_GIB})`,
          (os.loadavg()[0] as number).toFixed(1),
        ]),
        `  KiB/socket by part: ${JSON.stringify(perSocketParts(before, after, added))}`,
      );
    } finally {
      for (const s of sockets) s.disconnect();
      await t.stop();
    }
  }
  return lines;
}
