// What the page's main thread did in a Lighthouse trace, by its own CPU time as well as by the wall clock.
//
// Lighthouse's Total Blocking Time takes each task's wall duration, scales it by the simulated CPU slowdown
// (4×) and counts what exceeds 50 ms. A task's wall duration includes the time its thread waited for a core:
// on a 2-core machine shared by the browser's other processes, Lighthouse, the app's server (and the busy
// loop of the busy rows), the renderer's main thread ran 35–40 % of its tasks' wall time in a quiet first
// visit. The same sum over thread time (the trace's `tdur`) says what the page's own work would block on a
// device that gave it a core: the figure the page's code can change.

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { documentLoaderURL?: string } };
}

export interface MainThreadFigures {
  /** Blocking time at 4× from thread time: Σ max(0, 4 × cpu − 50 ms) over the tasks after the first paint. */
  cpuBlockingMs: number;
  /** The share of those tasks' wall time their thread was running (1: it never waited for a core). */
  ranShare: number;
  /** The page's renderer main thread (OS ids on Linux) and the window measured: first paint to the last task's end. */
  pid: number;
  fromUs: number;
  toUs: number;
}

const SLOWDOWN = 4;
const LONG_TASK_MS = 50;

export function mainThreadFigures(events: readonly TraceEvent[]): MainThreadFigures | null {
  const navigation = events
    .filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'))
    .at(-1);
  if (!navigation) return null;
  const onMain = (e: TraceEvent) => e.pid === navigation.pid && e.tid === navigation.tid;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && onMain(e) && e.ts > navigation.ts);
  if (!fcp) return null;
  let blocking = 0;
  let wall = 0;
  let cpu = 0;
  let end = fcp.ts;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !onMain(e) || e.ts < fcp.ts) continue;
    end = Math.max(end, e.ts + (e.dur ?? 0));
    const taskCpu = (e.tdur ?? e.dur ?? 0) / 1000;
    wall += (e.dur ?? 0) / 1000;
    cpu += taskCpu;
    blocking += Math.max(0, SLOWDOWN * taskCpu - LONG_TASK_MS);
  }
  return {
    cpuBlockingMs: Math.round(blocking),
    ranShare: wall > 0 ? cpu / wall : 1,
    pid: navigation.pid,
    fromUs: fcp.ts,
    toUs: end,
  };
}
