import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { joinMediaCgroup, mediaCgroupEnv } from './media-cgroup.ts';

/**
 * Linux keeps a niceness per thread: `setpriority(PRIO_PROCESS, tid)` changes one thread, not the process.
 * Lowers the priority of this process's threads whose name (`/proc/self/task/<tid>/comm`) starts with one of
 * `names` to `nice` (a thread already lower stays as it is); answers how many it changed. Elsewhere a no-op.
 */
export function lowerThreadPriority(
  names: readonly string[],
  nice: number,
  taskDir = '/proc/self/task',
): number {
  if (process.platform !== 'linux') return 0;
  let tids: string[];
  try {
    tids = fs.readdirSync(taskDir);
  } catch {
    return 0;
  }
  let changed = 0;
  for (const tid of tids) {
    let name: string;
    try {
      name = fs.readFileSync(`${taskDir}/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    if (!names.some((n) => name.startsWith(n))) continue;
    try {
      if (os.getPriority(Number(tid)) >= nice) continue;
      os.setPriority(Number(tid), nice);
      changed += 1;
    } catch {
      // ended meanwhile, or not ours to change
    }
  }
  return changed;
}

/**
 * Keeps the named threads at `nice` as they come and go (thread pools start theirs on first use): checks now
 * and every `everyMs`. `stop()` ends the checks.
 */
export function keepThreadsNiced(names: readonly string[], nice: number, everyMs = 5000) {
  lowerThreadPriority(names, nice);
  const timer = setInterval(() => lowerThreadPriority(names, nice), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Linux's scheduling policies as `/proc/<pid>/stat` gives them (its 41st field). */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

/** A process's scheduling policy (`SCHED_OTHER`, `SCHED_IDLE`, …); null off Linux or when unreadable. */
export function schedulingPolicy(pid: number | 'self' = 'self'): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the 3rd; the policy is the 41st.
    const policy = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
    return Number.isInteger(policy) ? policy : null;
  } catch {
    return null;
  }
}

const CHRT = ['/usr/bin/chrt', '/bin/chrt'];

/**
 * How a media process gives the cores to the server (ADR 0017): `idle` (the default) puts it under Linux's
 * `SCHED_IDLE`, where it runs only on a core no ordinary thread wants, and a waking event loop takes the core
 * at once; `nice` keeps it an ordinary task at a lower niceness, which still shares a core's time slices with
 * the event loop. `MEDIA_SCHEDULING` chooses.
 */
export type MediaScheduling = 'idle' | 'nice';

export function mediaScheduling(env: NodeJS.ProcessEnv = process.env): MediaScheduling {
  return env.MEDIA_SCHEDULING === 'nice' ? 'nice' : 'idle';
}

/**
 * What the server adds to the environment of a media process it starts: with `idle`, the idle cgroup it
 * joins (lib/media-cgroup.ts), made on the first call where the machine allows it.
 */
export function mediaProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return mediaScheduling(env) === 'idle' ? mediaCgroupEnv() : {};
}

/**
 * Lowers this whole process (every thread it has; those it starts later inherit) to `nice` and, with
 * `idle`, to `SCHED_IDLE` and into the idle cgroup the server prepared (`mediaProcessEnv`). Lowering one's
 * own policy needs no privilege; util-linux's `chrt` does it, since Node has no call for it. Where that fails
 * (no `chrt`, not Linux) the niceness alone stays. Called once by the small media processes as they start,
 * never by the server: it answers where the process ended up.
 */
export function lowerProcessPriority(
  nice: number,
  scheduling: MediaScheduling,
): { nice: number | null; policy: number | null; cgroup: boolean } {
  if (process.platform !== 'linux') return { nice: null, policy: null, cgroup: false };
  const cgroup = scheduling === 'idle' && joinMediaCgroup();
  try {
    os.setPriority(nice);
  } catch {}
  const chrt = CHRT.find((file) => fs.existsSync(file));
  if (scheduling === 'idle' && chrt) {
    try {
      execFileSync(chrt, ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
    } catch {}
  }
  let current: number | null = null;
  try {
    current = os.getPriority();
  } catch {}
  return { nice: current, policy: schedulingPolicy(), cgroup };
}
