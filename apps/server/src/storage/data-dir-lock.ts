import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per embedded data directory. PGlite has no locking of its own: a second process opening the
 * same `DATA_DIR/pg` (a second `npm start`, `npm run seed:demo` beside a running server) corrupts it. The
 * holder writes `DATA_DIR/kadr.lock` (created exclusively) with its PID and its start time; a lock whose
 * process is gone — or whose PID now belongs to another process (PID reuse, a restarted container) — is
 * stale and taken over.
 */
export interface DataDirLock {
  readonly file: string;
  /** Records where the holder serves HTTP, so another tool (the demo seeder) can go through its API. */
  announce(url: string): void;
  release(): void;
}

interface LockContents {
  pid: number;
  /** `/proc/<pid>/stat` start time (clock ticks since boot); null where /proc is missing. */
  started: string | null;
  host: string;
  command: string;
  since: string;
  /** Unique per acquisition, so a process recognises its own lock and nobody else's. */
  token: string;
  /** The holder's HTTP address on this host, once it listens (`http://127.0.0.1:<port>`). */
  url?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockContents,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Kadr process (PID ${holder.pid} on ${holder.host}, ` +
        `"${holder.command}", since ${holder.since}). Two processes on one embedded database corrupt it: ` +
        `stop that process first, or give this one its own DATA_DIR (or a DATABASE_URL). ` +
        `If no such process exists, delete ${path.join(dataDir, LOCK_NAME)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export const LOCK_NAME = 'kadr.lock';
const held = new Set<string>();

function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) may contain spaces, so count from the closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process that wrote `holder` still runs (on this host; another host's lock is never stale). */
export function holderRuns(holder: LockContents): boolean {
  if (holder.host !== os.hostname()) return true;
  if (holder.pid === process.pid) return held.has(holder.token);
  if (!alive(holder.pid)) return false;
  const now = startTime(holder.pid);
  return holder.started === null || now === null || now === holder.started;
}

function readLock(file: string): LockContents | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContents>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      started: parsed.started ?? null,
      host: parsed.host ?? os.hostname(),
      command: parsed.command ?? '?',
      since: parsed.since ?? '?',
      token: parsed.token ?? '',
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Half-written by a process killed while writing it: nobody holds it.
    return null;
  }
}

/** The running process that holds `dataDir`, if any (read only; nothing is taken or removed). */
export function dataDirHolder(dataDir: string): LockContents | null {
  const holder = readLock(path.join(dataDir, LOCK_NAME));
  return holder && holderRuns(holder) ? holder : null;
}

/** Takes the lock on `dataDir` or throws `DataDirLockedError` naming the process that holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_NAME);
  const mine: LockContents = {
    pid: process.pid,
    started: startTime(process.pid),
    host: os.hostname(),
    command: process.argv
      .slice(1)
      .map((a) => path.basename(a))
      .join(' '),
    since: new Date().toISOString(),
    token: randomUUID(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, `${JSON.stringify(mine)}\n`);
      fs.closeSync(fd);
      held.add(mine.token);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(mine.token);
        process.off('exit', release);
        // Only our own lock: a stale-lock takeover by another process must not be undone by us.
        if (readLock(file)?.token === mine.token) fs.rmSync(file, { force: true });
      };
      process.once('exit', release);
      const announce = (url: string) => {
        if (released || readLock(file)?.token !== mine.token) return;
        // Written beside and renamed over, so a reader never sees half a file.
        const next = `${file}.${mine.token}`;
        fs.writeFileSync(next, `${JSON.stringify({ ...mine, url })}\n`, { mode: 0o644 });
        fs.renameSync(next, file);
      };
      return { file, announce, release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(file);
    if (holder && holderRuns(holder)) throw new DataDirLockedError(dataDir, holder);
    // Stale: move it aside atomically, so two processes taking it over at once cannot both win.
    const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
    try {
      fs.renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      continue;
    }
    const moved = readLock(aside);
    if (holder && moved && moved.token !== holder.token) {
      // Another process took the stale lock over between our read and our rename: give it back.
      try {
        fs.linkSync(aside, file);
      } catch {}
    }
    fs.rmSync(aside, { force: true });
  }
  throw new Error(`could not take the lock ${file}`);
}
