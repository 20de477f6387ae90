import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * A failure that retrying cannot fix (the decoder rejects the input, the job ran past its cap): the job
 * fails at once. `reason` is the Russian sentence the user is shown.
 */
export class PermanentJobError extends Error {
  readonly permanent = true;
  constructor(
    message: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export const isPermanent = (error: unknown): error is PermanentJobError =>
  error instanceof PermanentJobError || (error as { permanent?: unknown } | null)?.permanent === true;

/** A job as its handler sees it. */
export interface JobRun<P> {
  id: number;
  payload: P;
  /** 1 on the first try. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the job runs past its cap or the queue stops: pass it to every child process (ffmpeg). */
  signal: AbortSignal;
}

/**
 * Light jobs (photos, sweeps) never wait behind heavy ones (video): each lane has its own workers and claims
 * only its own kinds.
 */
export type Lane = 'light' | 'heavy';

export interface RegisterOptions {
  lane?: Lane;
  /** Cap on one run; defaults to the queue's `timeoutMs`. */
  timeoutMs?: number;
  /** The Russian sentence a user is shown when the cap is hit. */
  timeoutReason?: string;
}

export interface JobHandler<P = unknown> {
  run(job: JobRun<P>): Promise<void>;
  /** Called once when the last attempt failed, so the domain can record the failure. */
  onGiveUp?(job: JobRun<P>, error: unknown): Promise<void>;
}

export interface QueueOptions {
  /** How long a claimed job stays ours; a heartbeat renews it, a crash lets it expire and another run resume it. */
  leaseMs: number;
  /** How often an idle queue looks for ready jobs it was not told of (one look for all its workers). */
  pollMs: number;
  /** Workers of the heavy lane. */
  concurrency: number;
  /** Workers of the light lane (default: as many as the heavy lane). */
  lightConcurrency?: number;
  /** Cap on one run unless the kind sets its own. */
  timeoutMs?: number;
  /** First retry delay; doubles per attempt up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  log?: { error(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

type Executor = Kysely<Database>;

interface ClaimedRow {
  id: number | string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/**
 * Durable job queue in the database (see docs/adr/0003-durable-jobs-in-postgres.md).
 * Any number of nodes may run workers on the same table: a job is claimed with
 * `FOR UPDATE SKIP LOCKED`, held by a renewed lease, retried with exponential backoff,
 * and picked up again when its lease expires (the process that held it died).
 */
export function jobQueue(db: Kysely<Database>, options: QueueOptions) {
  // Host and pid first: an operator (or the kill test) can tell which process holds a job.
  const nodeId = `${os.hostname()}:${process.pid}:${randomUUID()}`;
  const handlers = new Map<string, JobHandler<never>>();
  const kindOptions = new Map<string, RegisterOptions>();
  /** Kinds that re-enqueue themselves every `everyMs` once run (see `schedule`). */
  const schedules = new Map<string, number>();
  const stopping = new AbortController();
  let running = false;
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  /**
   * Each waiter resolves once every loop has found nothing to claim after it asked, with nothing running.
   * `asked` numbers the waiters; a claim counts for those that asked before the claim began. A claim already
   * in flight when a waiter asked may predate what the waiter waits for (on PostgreSQL its snapshot missed a
   * job requeued just before: the queue looked idle with the job still queued).
   */
  const idleWaiters: { asked: number; pending: Set<number>; resolve: () => void }[] = [];
  let asked = 0;
  let loopCount = 0;
  let active = 0;
  /** Counts an empty claim for the waiters it may answer; true when a later waiter needs this loop to ask again. */
  function reportEmpty(loopId: number, claimedAfter: number): boolean {
    let askAgain = false;
    for (const w of [...idleWaiters]) {
      if (w.asked > claimedAfter) {
        askAgain = true;
        continue;
      }
      w.pending.delete(loopId);
      if (w.pending.size === 0 && active === 0) {
        idleWaiters.splice(idleWaiters.indexOf(w), 1);
        w.resolve();
      }
    }
    return askAgain;
  }

  async function claim(lane: Lane): Promise<ClaimedRow | null> {
    const kinds = [...handlers.keys()].filter((k) => (kindOptions.get(k)?.lane ?? 'heavy') === lane);
    if (kinds.length === 0) return null;
    const leaseSeconds = options.leaseMs / 1000;
    const result = await sql<ClaimedRow>`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${nodeId},
        locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = (
        select id from jobs
        where kind = any(${sql.val(kinds)}::text[])
          and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, kind, payload, attempts, max_attempts`.execute(db);
    return result.rows[0] ?? null;
  }

  /** Whether any job of ours is ready to claim (a read: no row is locked or written). */
  async function anyReady(): Promise<boolean> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return false;
    const { rows } = await sql<{ ready: boolean }>`
      select exists (
        select 1 from jobs
        where status in ('queued', 'running') and kind = any(${sql.val(kinds)}::text[])
          and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
      ) as ready`.execute(db);
    return rows[0]?.ready === true;
  }

  async function finish(id: number, fields: Record<string, unknown>) {
    await db.updateTable('jobs').set(fields).where('id', '=', id).where('locked_by', '=', nodeId).execute();
  }

  async function runOne(row: ClaimedRow) {
    const id = Number(row.id);
    const handler = handlers.get(row.kind)!;
    const opts = kindOptions.get(row.kind) ?? {};
    const capMs = opts.timeoutMs ?? options.timeoutMs ?? 15 * 60_000;
    const controller = new AbortController();
    const onStop = () => controller.abort(new Error('queue stopped'));
    stopping.signal.addEventListener('abort', onStop, { once: true });
    const job: JobRun<never> = {
      id,
      payload: row.payload as never,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      signal: controller.signal,
    };
    let capTimer: NodeJS.Timeout | undefined;
    // The cap fails the job even if the handler ignores the signal; the signal kills its child processes.
    const capped = new Promise<never>((_, reject) => {
      capTimer = setTimeout(() => {
        const error = new PermanentJobError(`job ran past its cap of ${capMs} ms`, opts.timeoutReason);
        controller.abort(error);
        reject(error);
      }, capMs);
    });
    capped.catch(() => undefined);
    const heartbeat = setInterval(
      () => {
        sql`update jobs set locked_until = now() + make_interval(secs => ${options.leaseMs / 1000})
          where id = ${id} and locked_by = ${nodeId}`
          .execute(db)
          .catch(() => undefined);
      },
      Math.max(50, options.leaseMs / 3),
    );
    try {
      await Promise.race([handler.run(job), capped]);
      await finish(id, { status: 'done', finished_at: new Date(), locked_by: null, locked_until: null });
      const every = schedules.get(row.kind);
      if (every !== undefined) await enqueueScheduled(row.kind, every).catch(() => undefined);
    } catch (error) {
      if (stopping.signal.aborted && !isPermanent(error)) {
        // Stopped mid-run (shutdown): leave the job to expire its lease and run again elsewhere.
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      options.log?.error({ err: error, jobId: id, kind: row.kind, attempt: row.attempts }, 'job failed');
      if (row.attempts >= row.max_attempts || isPermanent(error)) {
        await handler.onGiveUp?.(job, error).catch(() => undefined);
        await finish(id, { status: 'failed', last_error: message, finished_at: new Date(), locked_by: null });
        const every = schedules.get(row.kind);
        if (every !== undefined) await enqueueScheduled(row.kind, every).catch(() => undefined);
      } else {
        const delay = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** (row.attempts - 1));
        await finish(id, {
          status: 'queued',
          last_error: message,
          run_at: new Date(Date.now() + delay),
          locked_by: null,
          locked_until: null,
        });
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(capTimer);
      stopping.signal.removeEventListener('abort', onStop);
    }
  }

  /**
   * The next run of a scheduled kind, unless one is already pending: the unique index on `unique_key` over
   * queued and running rows makes this safe from any number of nodes at once.
   */
  async function enqueueScheduled(kind: string, everyMs: number, delayMs = everyMs) {
    await sql`insert into jobs (kind, payload, max_attempts, run_at, unique_key)
      values (${kind}, ${JSON.stringify({ scheduled: true })}, 1, now() + make_interval(secs => ${delayMs / 1000}), ${`schedule:${kind}`})
      on conflict (unique_key) where status in ('queued', 'running') do nothing`.execute(db);
  }

  function wakeAll() {
    for (const w of [...wakers]) w();
  }

  /**
   * A loop that found nothing waits here until the watcher sees a ready job, `notify`, `idle` or `stop`. A loop
   * whose claim was still out when the queue stopped comes here after `stop` woke the others: it must not wait.
   */
  function park() {
    if (!running) return Promise.resolve();
    const parked = new Promise<void>((resolve) => {
      function done() {
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });
    watch();
    return parked;
  }

  /**
   * One look per `pollMs` for the whole queue while any loop is parked, instead of every loop claiming on its
   * own: an idle embedded server ran three claims a second (~2 ms of PGlite each, in the event loop that serves
   * requests). A job queued here is announced by `notify` (or by `enqueue` outside a transaction); the look
   * finds the rest: another node's jobs, retries and scheduled runs coming due, leases that expired.
   */
  let watcher: NodeJS.Timeout | null = null;
  function watch() {
    if (watcher || !running) return;
    watcher = setTimeout(async () => {
      let ready = false;
      try {
        ready = await anyReady();
      } catch (error) {
        if (running) options.log?.error({ err: error }, 'job watch failed');
      }
      watcher = null;
      if (!running) return;
      if (ready) wakeAll();
      else if (wakers.size > 0) watch();
    }, options.pollMs);
  }

  async function loop(lane: Lane, loopId: number) {
    while (running) {
      let row: ClaimedRow | null = null;
      const claimedAfter = asked;
      try {
        row = await claim(lane);
      } catch (error) {
        if (!running) return;
        options.log?.error({ err: error }, 'job claim failed');
      }
      if (!row) {
        if (reportEmpty(loopId, claimedAfter)) continue;
        await park();
        continue;
      }
      active += 1;
      try {
        await runOne(row);
      } finally {
        active -= 1;
      }
    }
  }

  return {
    nodeId,

    register<P>(kind: string, handler: JobHandler<P>, opts: RegisterOptions = {}) {
      handlers.set(kind, handler as JobHandler<never>);
      kindOptions.set(kind, opts);
    },

    /**
     * Runs `kind` every `everyMs` on whichever node claims it first (one pending run across all nodes). The
     * handler must already be registered; a failed run is not retried, the next one comes on time.
     */
    async schedule(kind: string, everyMs: number, opts: { firstInMs?: number } = {}) {
      if (!handlers.has(kind)) throw new Error(`schedule: no handler registered for ${kind}`);
      schedules.set(kind, everyMs);
      await enqueueScheduled(kind, everyMs, opts.firstInMs ?? everyMs);
    },

    /** Removes finished jobs older than `olderThanMs` (done and failed alike); returns how many. */
    async prune(olderThanMs: number): Promise<number> {
      const result = await db
        .deleteFrom('jobs')
        .where('status', 'in', ['done', 'failed'])
        .where('finished_at', '<', new Date(Date.now() - olderThanMs))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Adds a job; pass a transaction so the job exists exactly when the rows it works on do, and `notify` once it
     * has committed. Outside a transaction the idle workers are woken here.
     */
    async enqueue(kind: string, payload: unknown, executor: Executor = db, maxAttempts = 5): Promise<number> {
      const row = await executor
        .insertInto('jobs')
        .values({ kind, payload: JSON.stringify(payload), max_attempts: maxAttempts })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (executor === db) wakeAll();
      return Number(row.id);
    },

    /** Wakes the idle workers now instead of at the next look. */
    notify: wakeAll,

    start() {
      if (running) return;
      running = true;
      for (let i = 0; i < options.concurrency; i++) loops.push(loop('heavy', loopCount++));
      const light = options.lightConcurrency ?? options.concurrency;
      for (let i = 0; i < light; i++) loops.push(loop('light', loopCount++));
    },

    /** Resolves once no job is ready or running here (tests and the demo seeder wait with it). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        const ids = Array.from({ length: loopCount }, (_, i) => i);
        asked += 1;
        idleWaiters.push({ asked, pending: new Set(ids), resolve });
        wakeAll();
      });
    },

    async stop() {
      running = false;
      stopping.abort();
      if (watcher) clearTimeout(watcher);
      watcher = null;
      wakeAll();
      await Promise.all(loops.splice(0));
    },
  };
}

export type JobQueue = ReturnType<typeof jobQueue>;
