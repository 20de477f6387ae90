// Stalls of a bench process's own thread (collections, long event-loop turns), timed on the clock the bench's
// processes share, so that the messenger bench can tell which of its slowest messages waited behind one.
import { PerformanceObserver, performance } from 'node:perf_hooks';

/**
 * A stall of a bench process's thread (the server's or the load generator's): a garbage collection longer than
 * `PAUSE_MS` or an event-loop turn longer than `TURN_MS`. `at` is in `performance.timeOrigin + now()`
 * milliseconds, a clock both processes share.
 */
export interface Pause {
  where: 'server' | 'bench';
  at: number;
  ms: number;
  /**
   * For a loop turn, the CPU time the thread used in it (ms): the rest of the turn it stood runnable in the
   * scheduler's queue, or blocked in a system call. A turn far longer than its CPU was the machine's, not the work's.
   */
  cpuMs?: number;
  kind:
    | 'scavenge'
    | 'minor mark-sweep'
    | 'mark-compact'
    | 'incremental marking'
    | 'weak callbacks'
    | 'loop turn';
}

/** Node 23.9+, which `npm run bench` runs on; the typings are Node 20's. */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;

/** This thread's CPU time so far (user + system, ms); NaN on a Node without `process.threadCpuUsage`. */
export function threadCpuMs(): number {
  const usage = threadCpuUsage?.call(process);
  return usage ? (usage.user + usage.system) / 1000 : Number.NaN;
}

const PAUSE_MS = 4;
/** A loop turn counts as a stall past this; the timer that measures turns fires every 5 ms while the loop is free. */
const TURN_MS = 25;
const gcKinds: Record<number, Pause['kind']> = {
  1: 'scavenge',
  2: 'minor mark-sweep',
  4: 'mark-compact',
  8: 'incremental marking',
  16: 'weak callbacks',
};

/**
 * Records this thread's stalls, the last 10,000, for the messenger bench to match with its slowest messages (the
 * bench server hands its own over IPC on `pauses`, and empties them). The 5 ms timer costs about 1 % of a core
 * (1.05–1.16 % in an otherwise idle process); it reads the thread's CPU time on each tick (one `getrusage`).
 */
export function recordPauses(where: Pause['where']): Pause[] {
  const pauses: Pause[] = [];
  const keep = (pause: Pause) => {
    pauses.push(pause);
    if (pauses.length > 10_000) pauses.shift();
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail: { kind: number } }>) {
      const { kind } = entry.detail;
      if (entry.duration > PAUSE_MS)
        keep({
          where,
          at: performance.timeOrigin + entry.startTime,
          ms: entry.duration,
          kind: gcKinds[kind] ?? 'scavenge',
        });
    }
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let lastCpu = threadCpuMs();
  setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    if (now - last > TURN_MS)
      keep({
        where,
        at: performance.timeOrigin + last,
        ms: now - last,
        ...(Number.isNaN(cpu) ? {} : { cpuMs: cpu - lastCpu }),
        kind: 'loop turn',
      });
    last = now;
    lastCpu = cpu;
  }, 5).unref();
  return pauses;
}
