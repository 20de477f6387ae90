import fs from 'node:fs';
import path from 'node:path';

/**
 * The media processes' CPU group (ADR 0017). `SCHED_IDLE` yields a core only to ordinary threads of the same
 * scheduling group: Linux schedules groups first (an autogroup per session, a cgroup per service), and a
 * group holding nothing but idle tasks still takes its full share of the cores from every other group. The
 * database's backends live in a group of their own, so a transcode beside them delayed each commit: the
 * p99 of a message on PostgreSQL doubled while a job ran (10 → 19 ms), though ffmpeg was `SCHED_IDLE`.
 * A cgroup with `cpu.idle` set is the group's own `SCHED_IDLE`: any ordinary task of any group takes the core
 * from it at once. Where the machine lets this process make one (a writable cpu controller: root with
 * cgroup v1, or a delegated cgroup v2 subtree, as systemd's `Delegate=yes` gives a service), the server makes
 * `kadr-media` under its own cgroup and each media process joins it as it starts; elsewhere the task's
 * `SCHED_IDLE` alone stays.
 */
export const MEDIA_CGROUP = 'kadr-media';

/** In cgroup v2 the processes of a group that hands the cpu controller to its children move to this leaf. */
export const SERVER_CGROUP = 'kadr-server';

/** This process's cgroup in the hierarchy that holds the cpu controller. */
export interface CpuCgroup {
  version: 1 | 2;
  /** Its directory. */
  dir: string;
}

/** mountinfo escapes spaces, tabs, newlines and backslashes in paths as octal. */
const unescapeOctal = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/**
 * Where this process's cgroup with the cpu controller is, from `/proc/<pid>/cgroup` and `/proc/<pid>/mountinfo`
 * (their text is passed in, to test): a cgroup v1 hierarchy with `cpu` among its controllers when one is
 * mounted (hybrid machines also mount an empty v2 one), else the unified v2 hierarchy. Null when neither is
 * mounted here (a container may mount only part of one: the mount's root is taken into account).
 */
export function findCpuCgroup(cgroupText: string, mountinfoText: string): CpuCgroup | null {
  const mounts = mountinfoText
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left = '', right = ''] = line.split(' - ');
      const fields = left.split(' ');
      const [fstype = '', , options = ''] = right.split(' ');
      return {
        root: unescapeOctal(fields[3] ?? ''),
        point: unescapeOctal(fields[4] ?? ''),
        fstype,
        options: options.split(','),
      };
    });
  const dirIn = (mount: { root: string; point: string } | undefined, cgroupPath: string) => {
    if (!mount) return null;
    const relative = path.posix.relative(mount.root, cgroupPath);
    if (relative.startsWith('..')) return null; // our cgroup is outside what is mounted
    return path.posix.join(mount.point, relative);
  };
  const lines = cgroupText
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const first = line.indexOf(':');
      const second = line.indexOf(':', first + 1);
      return { controllers: line.slice(first + 1, second).split(','), path: line.slice(second + 1) };
    });
  const v1 = lines.find((l) => l.controllers.includes('cpu'));
  if (v1) {
    const dir = dirIn(
      mounts.find((m) => m.fstype === 'cgroup' && m.options.includes('cpu')),
      v1.path,
    );
    return dir ? { version: 1, dir } : null;
  }
  const v2 = lines.find((l) => l.controllers.length === 1 && l.controllers[0] === '');
  if (!v2) return null;
  const dir = dirIn(
    mounts.find((m) => m.fstype === 'cgroup2'),
    v2.path,
  );
  return dir ? { version: 2, dir } : null;
}

const words = (file: string) => fs.readFileSync(file, 'utf8').trim().split(/\s+/);

/**
 * One level, already there is fine. Never `{ recursive: true }` here: Node's recursive mkdir spins forever on
 * some errors of pseudo file systems (a path under /proc never returns).
 */
function makeGroup(dir: string) {
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** How a cgroup file is written: the kernel's answers (EBUSY) come back as thrown errors. */
export type WriteFile = (file: string, text: string) => void;

/**
 * Hands the cpu controller of a v2 group to its children. A v2 group that has processes of its own cannot
 * (the "no internal processes" rule, EBUSY): then this process moves to the `kadr-server` leaf first, and
 * back should the group still hold others' processes.
 */
function enableCpuForChildren(dir: string, pid: number, write: WriteFile) {
  const control = path.join(dir, 'cgroup.subtree_control');
  if (words(control).includes('cpu')) return;
  try {
    write(control, '+cpu');
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EBUSY') throw error;
  }
  const leaf = path.join(dir, SERVER_CGROUP);
  makeGroup(leaf);
  write(path.join(leaf, 'cgroup.procs'), String(pid));
  try {
    write(control, '+cpu');
  } catch (error) {
    write(path.join(dir, 'cgroup.procs'), String(pid));
    throw error;
  }
}

/**
 * Makes (or finds) the idle media cgroup under this process's own and answers its directory; null where the
 * machine does not let this process (not Linux, no cpu controller, read-only, a kernel without `cpu.idle`).
 * Called by the server once, before it starts its first media process. (`write` is the kernel's interface,
 * passed in to test the cgroup v2 rules on a machine that has no v2 cpu controller.)
 */
export function prepareMediaCgroup(
  found: CpuCgroup | null = readOwnCpuCgroup(),
  pid: number = process.pid,
  write: WriteFile = fs.writeFileSync,
): string | null {
  if (!found) return null;
  try {
    if (found.version === 2) {
      if (!words(path.join(found.dir, 'cgroup.controllers')).includes('cpu')) return null;
      enableCpuForChildren(found.dir, pid, write);
    }
    const dir = path.join(found.dir, MEDIA_CGROUP);
    makeGroup(dir);
    write(path.join(dir, 'cpu.idle'), '1');
    return dir;
  } catch {
    return null;
  }
}

function readOwnCpuCgroup(): CpuCgroup | null {
  if (process.platform !== 'linux') return null;
  try {
    return findCpuCgroup(
      fs.readFileSync('/proc/self/cgroup', 'utf8'),
      fs.readFileSync('/proc/self/mountinfo', 'utf8'),
    );
  } catch {
    return null;
  }
}

let prepared: string | null | undefined;

/** `prepareMediaCgroup()` once per server: the environment a media process is started with names the group. */
export function mediaCgroupEnv(): { KADR_MEDIA_CGROUP?: string } {
  // Once, even when it answered null: under cgroup v2 a try may move the server and back.
  if (prepared === undefined) prepared = prepareMediaCgroup();
  return prepared ? { KADR_MEDIA_CGROUP: prepared } : {};
}

/**
 * Moves this whole process (every thread; the processes it starts later inherit) into the cgroup the server
 * prepared (`KADR_MEDIA_CGROUP`); answers whether it did.
 */
export function joinMediaCgroup(env: NodeJS.ProcessEnv = process.env): boolean {
  const dir = env.KADR_MEDIA_CGROUP;
  if (!dir) return false;
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
    return true;
  } catch {
    return false;
  }
}

/** The directory of a process's cgroup in the cpu hierarchy (to check where it runs); null when unreadable. */
export function cpuCgroupOf(pid: number | 'self'): string | null {
  try {
    return (
      findCpuCgroup(
        fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8'),
        fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8'),
      )?.dir ?? null
    );
  } catch {
    return null;
  }
}
