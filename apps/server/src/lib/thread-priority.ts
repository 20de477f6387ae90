import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { joinMediaCgroup, mediaCgroupEnv } from './media-cgroup.ts';

/**
 * Niceness of every media process (the launcher and the binaries it starts, the detector's process, the image
 * process); 0 is the server's own, 19 the lowest.
 */
export const MEDIA_NICE = 10;

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
 * the event loop; `none` leaves it at the server's own priority, for a machine whose other load is not this
 * server's (a test run, where the neighbours are other suites' servers, would starve an idle transcode for
 * minutes) or where media has cores of its own. `MEDIA_SCHEDULING` chooses.
 */
export type MediaScheduling = 'idle' | 'nice' | 'none';

export const MEDIA_SCHEDULINGS: readonly MediaScheduling[] = ['idle', 'nice', 'none'];

export function mediaScheduling(env: NodeJS.ProcessEnv = process.env): MediaScheduling {
  const value = env.MEDIA_SCHEDULING;
  return value === 'nice' || value === 'none' ? value : 'idle';
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
  if (process.platform !== 'linux' || scheduling === 'none') {
    return { nice: currentNice(), policy: schedulingPolicy(), cgroup: false };
  }
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
  return { nice: currentNice(), policy: schedulingPolicy(), cgroup };
}

function currentNice(): number | null {
  try {
    return os.getPriority();
  } catch {
    return null;
  }
}
