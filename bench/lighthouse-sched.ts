// How long the page's main thread waited for a core during a Lighthouse audit, read from the kernel.
//
// A task's wall time in the trace is its thread running (the trace's `tdur`), waiting in the run queue for a core,
// and blocked (a synchronous call to the browser process, such as font matching). Linux counts the second per
// thread (`/proc/<pid>/task/<tid>/schedstat`: ns on a CPU, ns runnable but waiting, time slices). A renderer lives
// only as long as its tab, so its counters are sampled while the audit runs; the trace's timestamps are
// CLOCK_MONOTONIC on Linux, as `process.hrtime` is, so a window of the trace picks its samples.
import { readFileSync } from 'node:fs';
import { processParents } from './lib.ts';

interface Sample {
  atUs: number;
  runMs: number;
  waitMs: number;
}

export interface RunQueueWatch {
  stop(): void;
  /** The main thread of renderer `pid`: its running and run-queue wait (ms) between two trace timestamps (µs). */
  between(pid: number, fromUs: number, toUs: number): { runMs: number; waitMs: number } | null;
}

/**
 * Samples every `everyMs` the main thread of each renderer of the browser started on `profileDir`. Renderers are
 * forked by the browser's zygotes (single-threaded), so a sample reads their children lists and each renderer's
 * counters: a few files, not all of /proc.
 */
export function watchRenderers(profileDir: string, everyMs = 100): RunQueueWatch {
  const zygotes = zygotesOf(profileDir);
  const samples = new Map<number, Sample[]>();
  const sample = () => {
    const atUs = Number(process.hrtime.bigint() / 1000n);
    for (const zygote of zygotes) {
      for (const child of readOr(`/proc/${zygote}/task/${zygote}/children`, '').split(' ').filter(Boolean)) {
        const pid = Number(child);
        const [run, wait] = readOr(`/proc/${pid}/task/${pid}/schedstat`, '').split(' ').map(Number);
        if (run === undefined || wait === undefined || Number.isNaN(wait)) continue;
        const list = samples.get(pid) ?? [];
        list.push({ atUs, runMs: run / 1e6, waitMs: wait / 1e6 });
        samples.set(pid, list);
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => clearInterval(timer),
    between(pid, fromUs, toUs) {
      const inside = (samples.get(pid) ?? []).filter((s) => s.atUs >= fromUs && s.atUs <= toUs);
      const first = inside[0];
      const last = inside.at(-1);
      if (!first || !last || first === last) return null;
      return { runMs: last.runMs - first.runMs, waitMs: last.waitMs - first.waitMs };
    },
  };
}

/** The zygotes of the Chromium started on `profileDir`: children of a process whose command line names it. */
function zygotesOf(profileDir: string): number[] {
  const parents = processParents() ?? new Map<number, number>();
  const cmdline = (pid: number) => readOr(`/proc/${pid}/cmdline`, '');
  const browsers = new Set(
    [...parents.keys()].filter((pid) => {
      const line = cmdline(pid);
      return line.includes(profileDir) && !line.includes('--type=');
    }),
  );
  return [...parents]
    .filter(([pid, ppid]) => browsers.has(ppid) && cmdline(pid).includes('--type=zygote'))
    .map(([pid]) => pid);
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return fallback; // the process ended between two reads, or this is not Linux
  }
}
