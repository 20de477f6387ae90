import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { testDatabase } from '../../test/helpers.ts';
import { type JobQueue, jobQueue, type QueueOptions } from './queue.ts';

/** Holds the answer of the queue's claim statement while `hold` is set: a claim in flight, made to stay there. */
class ClaimGate implements KyselyPlugin {
  hold: Promise<void> | null = null;
  /** Resolves when a held claim has started waiting. */
  waiting: () => void = () => undefined;
  readonly #claims = new WeakSet<QueryId>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const raw = node as { kind: string; sqlFragments?: readonly string[] };
    if (raw.kind === 'RawNode' && raw.sqlFragments?.join('').includes("set status = 'running'"))
      this.#claims.add(queryId);
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#claims.has(queryId) && this.hold) {
      const hold = this.hold;
      this.hold = null;
      this.waiting();
      await hold;
    }
    return result;
  }

  /**
   * Holds the answer of the next claim, which `queue.notify()` starts now; resolves once that claim is held,
   * with the function that lets its answer go.
   */
  async holdNextClaim(queue: JobQueue): Promise<() => void> {
    let release: () => void = () => undefined;
    this.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const claimWaiting = new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    queue.notify();
    await claimWaiting;
    return release;
  }
}

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/**
 * A started queue on a fresh database (through `plugin` when given) with one kind, `test.job`, whose runs record
 * their payload's `n`; it is stopped and its database dropped after the test.
 */
async function startedQueue(plugin: KyselyPlugin | null, options: Partial<QueueOptions>) {
  const { db, drop } = await testDatabase();
  const queue: JobQueue = jobQueue(plugin ? db.kysely.withPlugin(plugin) : db.kysely, {
    leaseMs: 30_000,
    pollMs: 60_000,
    concurrency: 1,
    lightConcurrency: 0,
    backoffMs: 100,
    maxBackoffMs: 1000,
    ...options,
  });
  const ran: number[] = [];
  queue.register('test.job', { run: async (job) => void ran.push((job.payload as { n: number }).n) });
  queue.start();
  close = async () => {
    await queue.stop();
    await drop();
  };
  return { db, queue, ran };
}

it('idle() does not take a claim that was already in flight for "nothing to do": it waits for a job queued just before', async () => {
  const gate = new ClaimGate();
  // The minute between looks is long enough that a loop left asleep after its claim would hold idle() past the test.
  const { queue, ran } = await startedQueue(gate, {});
  await queue.idle();
  // The loop's next claim finds nothing, and its answer is held back.
  const release = await gate.holdNextClaim(queue);
  // A job arrives while that claim is in flight, and a caller waits for the queue to be idle.
  await queue.enqueue('test.job', { n: 1 });
  const idle = queue.idle();
  release();
  await idle;
  // The empty claim began before the caller asked: idle() came only after the job had run.
  expect(ran).toEqual([1]);
}, 60_000);

/** Counts the queue's claims and its looks for ready jobs. */
class StatementCounter implements KyselyPlugin {
  claims = 0;
  looks = 0;

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const text = (node as { sqlFragments?: readonly string[] }).sqlFragments?.join('') ?? '';
    if (text.includes("set status = 'running'")) this.claims += 1;
    else if (text.includes('select exists')) this.looks += 1;
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

it('an idle queue looks for ready jobs once a poll for all its workers, and claims nothing until one is ready', async () => {
  const counter = new StatementCounter();
  const { db, queue, ran } = await startedQueue(counter, { pollMs: 40, concurrency: 2, lightConcurrency: 2 });
  queue.register('test.light', { run: async () => undefined }, { lane: 'light' });
  await queue.idle();
  counter.claims = 0;
  counter.looks = 0;
  await new Promise((resolve) => setTimeout(resolve, 400));
  // Four workers polling on their own claimed ~40 times in 400 ms; parked, they leave it to one look a poll.
  expect(counter.claims).toBe(0);
  expect(counter.looks).toBeGreaterThanOrEqual(1);
  expect(counter.looks).toBeLessThanOrEqual(11);
  // A job another node queued (a row, no notify here) is found by the next look and run.
  await db.kysely
    .insertInto('jobs')
    .values({ kind: 'test.job', payload: JSON.stringify({ n: 7 }), max_attempts: 1 })
    .execute();
  await vi.waitFor(() => expect(ran).toEqual([7]), { timeout: 5000, interval: 20 });
}, 60_000);

it('a job queued outside a transaction wakes the idle workers at once, without waiting for a look', async () => {
  const { queue, ran } = await startedQueue(null, {});
  await queue.idle();
  await queue.enqueue('test.job', { n: 1 });
  // The next look is a minute away: only the wake from enqueue runs it within the wait.
  await vi.waitFor(() => expect(ran).toEqual([1]), { timeout: 5000, interval: 20 });
}, 60_000);

it('stop() ends a loop whose claim was in flight when it was called, though the claim finds nothing', async () => {
  const gate = new ClaimGate();
  const { queue } = await startedQueue(gate, {});
  await queue.idle();
  const release = await gate.holdNextClaim(queue);
  // The queue stops while the claim is out; the empty answer comes after. A loop that parked then slept for good.
  const stopped = queue.stop().then(() => 'stopped');
  release();
  const timeout = new Promise((resolve) => setTimeout(() => resolve('still running'), 2000));
  expect(await Promise.race([stopped, timeout])).toBe('stopped');
}, 60_000);
