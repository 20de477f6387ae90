import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { lowerProcessPriority, MEDIA_NICE, mediaProcessEnv, mediaScheduling } from './thread-priority.ts';

const require = createRequire(import.meta.url);

/**
 * Media processes (ADR 0017): the detector's (tagger/labeler-worker.ts) and the image process
 * (processing/image-worker.ts) do their pixel work outside the server's process, under `SCHED_IDLE` and in the
 * idle cgroup where the machine has one, so a photo never takes a core from the event loop or from
 * PostgreSQL's backends; and what libvips' and tfjs' allocations fragment is given back when the process is
 * replaced. The server sends `{ id, op, … }` and gets `{ id, result, rss }` or `{ id, error }` back.
 */
export type MediaReply =
  | { id: number; result: unknown; rss: number }
  | { id: number; error: { message: string } };

/** What every media process answers to `info`: who runs the work, at which niceness and policy, with how much memory. */
export interface MediaProcessInfo {
  pid: number;
  nice: number | null;
  policy: number | null;
  rss: number;
}

export interface MediaProcessOptions<Call extends { op: string }> {
  /** For error messages: "labeler", "image". */
  name: string;
  /**
   * The entry's TypeScript source, `new URL('./x.ts', import.meta.url)`. From source (tests, benches) it runs
   * under tsx; beside the compiled server bundle it is `x.mjs` (scripts/build-server.mjs builds it).
   */
  entry: URL;
  /** The environment variable the entry checks before it serves (so importing it elsewhere does nothing). */
  flag: string;
  /** Calls that count towards `maxJobs`. */
  counts(call: Call): boolean;
  /** Counted calls one process serves before it is replaced. */
  maxJobs: number;
  /** RSS past which the process is replaced after its current call, in bytes. */
  maxRss: number;
  /**
   * Stop the process once it has had no call for this long (ms), so an idle server does not keep what the
   * work loaded (the detector's models and WASM memory); the next call starts a new one. Unset: kept.
   */
  idleMs?: number;
}

export interface MediaProcess<Call> {
  call<T>(request: Call): Promise<T>;
  /** Stops the process (a later call starts a new one); calls in flight fail. */
  close(): Promise<void>;
}

interface Running {
  child: ChildProcess;
  pending: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
  jobs: number;
  /** Takes no more calls; stops once the ones in flight are answered. */
  retired: boolean;
  /** Stops the process after `idleMs` without a call. */
  idleTimer: NodeJS.Timeout | null;
}

function entryFile(entry: URL): string {
  const source = fileURLToPath(entry);
  if (import.meta.url.endsWith('.ts')) return source;
  // Bundled: this file is dist/main.mjs, and the entries sit beside it.
  return path.join(path.dirname(fileURLToPath(import.meta.url)), `${path.basename(source, '.ts')}.mjs`);
}

/** An idle process must not keep the server alive; calls in flight ref it again. */
function idle(child: ChildProcess) {
  child.unref();
  child.channel?.unref();
}

function busy(child: ChildProcess) {
  child.ref();
  child.channel?.ref();
}

/**
 * One media process, started on the first call and kept while it is used. It is replaced after `maxJobs`
 * counted calls or once its RSS passes `maxRss` (a WASM memory and the allocator's arenas never shrink in
 * place); one that dies fails the calls in flight and is started again on the next call.
 */
export function mediaProcess<Call extends { op: string }>(
  options: MediaProcessOptions<Call>,
): MediaProcess<Call> {
  let current: Running | null = null;
  let nextId = 1;

  function stop(p: Running) {
    if (current === p) current = null;
    p.retired = true;
    if (p.idleTimer) clearTimeout(p.idleTimer);
    if (p.pending.size === 0 && p.child.connected) p.child.disconnect();
  }

  function rest(p: Running) {
    idle(p.child);
    if (options.idleMs === undefined) return;
    if (p.idleTimer) clearTimeout(p.idleTimer);
    p.idleTimer = setTimeout(() => {
      if (p.pending.size === 0) stop(p);
    }, options.idleMs);
    p.idleTimer.unref();
  }

  function start(): Running {
    if (current && !current.retired) return current;
    const fromSource = import.meta.url.endsWith('.ts');
    const child = fork(entryFile(options.entry), [], {
      // Not the server's flags (heap size, profiler, inspector): a plain Node that does one kind of work.
      execArgv: fromSource ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [],
      env: { ...process.env, ...mediaProcessEnv(), [options.flag]: '1' },
      // Typed arrays cross the channel as bytes, not as JSON arrays of numbers.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const p: Running = { child, pending: new Map(), jobs: 0, retired: false, idleTimer: null };
    const failAll = (error: Error) => {
      for (const call of p.pending.values()) call.reject(error);
      p.pending.clear();
    };
    child.on('message', (reply: MediaReply) => {
      const call = p.pending.get(reply.id);
      if (!call) return;
      p.pending.delete(reply.id);
      if ('error' in reply) call.reject(new Error(reply.error.message));
      else {
        if (reply.rss > options.maxRss) p.retired = true;
        call.resolve(reply.result);
      }
      if (p.pending.size > 0) return;
      if (p.retired) stop(p);
      else rest(p);
    });
    child.on('error', (error) => {
      if (current === p) current = null;
      failAll(error);
    });
    child.on('exit', (code, signal) => {
      if (current === p) current = null;
      failAll(new Error(`${options.name} process exited with ${code ?? signal}`));
    });
    rest(p);
    current = p;
    return p;
  }

  return {
    call<T>(request: Call): Promise<T> {
      const p = start();
      if (options.counts(request)) {
        p.jobs += 1;
        // The call that reaches the bound is the process's last; the next one starts a fresh process.
        if (p.jobs >= options.maxJobs) p.retired = true;
      }
      if (p.retired && current === p) current = null;
      if (p.idleTimer) clearTimeout(p.idleTimer);
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        p.pending.set(id, { resolve: (value) => resolve(value as T), reject });
        busy(p.child);
        p.child.send({ ...request, id }, (error) => {
          if (!error) return;
          p.pending.delete(id);
          reject(error);
        });
      });
    },
    async close() {
      const p = current;
      current = null;
      if (!p) return;
      const exited = new Promise((resolve) => p.child.once('exit', resolve));
      for (const pending of p.pending.values()) pending.reject(new Error(`${options.name} closed`));
      p.pending.clear();
      p.retired = true;
      if (p.idleTimer) clearTimeout(p.idleTimer);
      // An idle child is unref'd: held again while it exits, or a caller awaiting close() alone never resumes.
      p.child.ref();
      if (p.child.connected) p.child.disconnect();
      if (p.child.exitCode === null && p.child.signalCode === null) await exited;
    },
  };
}

/**
 * The media process's side: lowers the whole process (every thread, those libvips starts later too) to the
 * media priority, sets sharp up for one libvips thread per image and no operation cache, and answers each
 * request with `handle`, at most `parallel` at a time in the order they came. `info` is answered here. When
 * the server goes (even `kill -9`) the IPC channel closes and the process exits.
 */
export function serveMediaCalls<Request extends { id: number; op: string }>(
  handle: (request: Request) => Promise<unknown>,
  { parallel = 1 }: { parallel?: number } = {},
) {
  if (!process.send) throw new Error('a media process needs an IPC channel');
  const ipcSend = process.send.bind(process);
  // The server may have gone while a request ran (a test closed its server, a kill): there is nobody to answer,
  // and 'disconnect' below ends the process. A send then fails with EPIPE; given a callback, Node hands that to
  // it instead of emitting an 'error' that would crash this process with a stack trace on the server's stderr.
  const send = (reply: MediaReply) => {
    if (process.connected) ipcSend(reply, undefined, undefined, () => {});
  };
  const { nice, policy } = lowerProcessPriority(MEDIA_NICE, mediaScheduling());
  sharp.cache(false);
  sharp.concurrency(1);
  const waiting: Request[] = [];
  let running = 0;
  async function answer(request: Request) {
    try {
      const result =
        request.op === 'info'
          ? ({ pid: process.pid, nice, policy, rss: process.memoryUsage.rss() } satisfies MediaProcessInfo)
          : await handle(request);
      send({ id: request.id, result, rss: process.memoryUsage.rss() } satisfies MediaReply);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      send({ id: request.id, error: { message } } satisfies MediaReply);
    }
  }
  function next() {
    while (running < parallel && waiting.length > 0) {
      running += 1;
      void answer(waiting.shift()!).finally(() => {
        running -= 1;
        next();
      });
    }
  }
  process.on('message', (request: Request) => {
    waiting.push(request);
    next();
  });
  process.on('disconnect', () => process.exit(0));
}
