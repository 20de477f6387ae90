import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mediaProcessEnv } from '../../../lib/thread-priority.ts';
import type { TfMemory } from './human-model.ts';
import { humanModelName } from './human-model.ts';
import type { LabelerCall, LabelerInfo, LabelerReply } from './labeler-worker.ts';
import type { Labeler, Labels } from './tagger.ts';

const require = createRequire(import.meta.url);

export interface HumanLabeler extends Labeler {
  /** The labeler process's live tfjs tensors (stable across posts when every tensor is disposed). */
  memory(): Promise<TfMemory>;
  /** The process the detector runs in (never the server's), its niceness and RSS. */
  info(): Promise<LabelerInfo>;
  /** Stops the labeler process (a later call starts a new one). */
  close(): Promise<void>;
}

export interface HumanLabelerOptions {
  /** Photos (detect calls) one process labels before it is replaced. */
  maxJobs?: number;
  /** RSS past which the process is replaced after its current call, in bytes. */
  maxRss?: number;
}

/**
 * The bounds of one labeler process. Its steady RSS is ~300–400 MB (the WASM memory, the models, Node); a new
 * process costs ~1–2 s of model loading and one fork of the server (tens of milliseconds of its event loop),
 * so it is replaced rarely: after 500 photos, or at once when its RSS passes 1 GiB.
 */
export const LABELER_MAX_JOBS = 500;
export const LABELER_MAX_RSS = 1024 * 1024 * 1024;

interface Process {
  child: ChildProcess;
  pending: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
  jobs: number;
  /** Takes no more calls; stops once the ones in flight are answered. */
  retired: boolean;
}

/**
 * The labeler process's entry: beside the compiled server bundle it is `labeler-worker.mjs`
 * (scripts/build-server.mjs builds it); from source (tests, benches) the TypeScript file under tsx.
 */
function forkLabeler(): ChildProcess {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(
    new URL(fromSource ? './labeler-worker.ts' : './labeler-worker.mjs', import.meta.url),
  );
  return fork(entry, [], {
    // Not the server's flags (heap size, profiler, inspector): a plain Node that only labels.
    execArgv: fromSource ? ['--import', pathToFileURL(require.resolve('tsx')).href] : [],
    env: { ...process.env, ...mediaProcessEnv(), KADR_LABELER: '1' },
    // Typed arrays cross the channel as bytes, not as JSON arrays of numbers.
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** An idle labeler must not keep the server alive; calls in flight ref it again. */
function idle(child: ChildProcess) {
  child.unref();
  child.channel?.unref();
}

function busy(child: ChildProcess) {
  child.ref();
  child.channel?.ref();
}

/**
 * Local, offline labeler: @vladmandic/human on the tfjs WASM backend — CenterNet objects (COCO) and BlazeFace
 * faces — in a process of its own (labeler-worker.ts), which also shrinks the frames with sharp. The server
 * only passes the encoded frames over; the WASM binaries and model files come from node_modules, nothing is
 * fetched from the network. The process is replaced after `maxJobs` photos or once its RSS passes `maxRss`
 * (the WASM memory and the allocator's arenas never shrink in place); one that dies fails the calls in flight
 * and is started again on the next.
 */
export function humanLabeler(options: HumanLabelerOptions = {}): HumanLabeler {
  const maxJobs = options.maxJobs ?? LABELER_MAX_JOBS;
  const maxRss = options.maxRss ?? LABELER_MAX_RSS;
  let current: Process | null = null;
  let nextId = 1;

  function stop(p: Process) {
    if (current === p) current = null;
    p.retired = true;
    if (p.pending.size === 0 && p.child.connected) p.child.disconnect();
  }

  function start(): Process {
    if (current && !current.retired) return current;
    const p: Process = { child: forkLabeler(), pending: new Map(), jobs: 0, retired: false };
    const failAll = (error: Error) => {
      for (const call of p.pending.values()) call.reject(error);
      p.pending.clear();
    };
    p.child.on('message', (reply: LabelerReply) => {
      const call = p.pending.get(reply.id);
      if (!call) return;
      p.pending.delete(reply.id);
      if ('error' in reply) call.reject(new Error(reply.error.message));
      else {
        if (reply.rss > maxRss) p.retired = true;
        call.resolve(reply.result);
      }
      if (p.pending.size > 0) return;
      if (p.retired) stop(p);
      else idle(p.child);
    });
    p.child.on('error', (error) => {
      if (current === p) current = null;
      failAll(error);
    });
    p.child.on('exit', (code, signal) => {
      if (current === p) current = null;
      failAll(new Error(`labeler process exited with ${code ?? signal}`));
    });
    idle(p.child);
    current = p;
    return p;
  }

  function call<T>(request: LabelerCall): Promise<T> {
    const p = start();
    if (request.op === 'detect') {
      p.jobs += 1;
      // The call that reaches the bound is the process's last; the next one starts a fresh process.
      if (p.jobs >= maxJobs) p.retired = true;
    }
    if (p.retired && current === p) current = null;
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
  }

  return {
    provider: 'local',
    model: humanModelName(),
    // Node's advanced serialization sends a Buffer's own bytes only, even when it is a slice of a larger one.
    label: (frames): Promise<Labels> => call<Labels>({ op: 'detect', frames }),
    memory: () => call<TfMemory>({ op: 'memory' }),
    info: () => call<LabelerInfo>({ op: 'info' }),
    async close() {
      const p = current;
      current = null;
      if (!p) return;
      const exited = new Promise((resolve) => p.child.once('exit', resolve));
      for (const pending of p.pending.values()) pending.reject(new Error('labeler closed'));
      p.pending.clear();
      p.retired = true;
      if (p.child.connected) p.child.disconnect();
      if (p.child.exitCode === null && p.child.signalCode === null) await exited;
    },
  };
}
