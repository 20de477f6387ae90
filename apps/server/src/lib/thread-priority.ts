import fs from 'node:fs';
import os from 'node:os';

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
