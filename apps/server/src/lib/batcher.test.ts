import { expect, it } from 'vitest';
import { batcher } from './batcher.ts';

it('runs items pushed together as one batch, in order, one result each', async () => {
  const calls: number[][] = [];
  const b = batcher(
    async (items: number[]) => {
      calls.push(items);
      return items.map((n) => n * 10);
    },
    { maxBatch: 100, maxInFlight: 1 },
  );
  const results = await Promise.all([1, 2, 3].map((n) => b.push(n)));
  expect(results).toEqual([10, 20, 30]);
  expect(calls).toEqual([[1, 2, 3]]);
});

it('queues while a batch runs and takes the whole queue next (bounded by maxBatch)', async () => {
  const calls: number[][] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const b = batcher(
    async (items: number[]) => {
      calls.push(items);
      if (calls.length === 1) await gate;
      return items;
    },
    { maxBatch: 3, maxInFlight: 1 },
  );
  const first = b.push(0);
  await new Promise((r) => setImmediate(r));
  const rest = [1, 2, 3, 4, 5].map((n) => b.push(n));
  await new Promise((r) => setTimeout(r, 10));
  expect(calls).toEqual([[0]]);
  release();
  expect(await Promise.all([first, ...rest])).toEqual([0, 1, 2, 3, 4, 5]);
  expect(calls).toEqual([[0], [1, 2, 3], [4, 5]]);
});

it('retries a failed batch item by item so only the bad item fails', async () => {
  const calls: number[][] = [];
  const b = batcher(
    async (items: number[]) => {
      calls.push(items);
      if (items.includes(2)) throw new Error(`bad ${items.join(',')}`);
      return items;
    },
    { maxBatch: 10, maxInFlight: 1 },
  );
  const results = await Promise.allSettled([1, 2, 3].map((n) => b.push(n)));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason.message).toBe('bad 2');
  expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
});

it('drained waits until nothing is queued or running', async () => {
  let finished = 0;
  const b = batcher(
    async (items: number[]) => {
      await new Promise((r) => setTimeout(r, 20));
      finished += items.length;
      return items;
    },
    { maxBatch: 2, maxInFlight: 1 },
  );
  await b.drained();
  for (const n of [1, 2, 3, 4, 5]) void b.push(n);
  await b.drained();
  expect(finished).toBe(5);
});

it("says how long its oldest queued item has waited (the send path's backpressure reads it)", async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const b = batcher(
    async (items: number[]) => {
      await gate;
      return items;
    },
    { maxBatch: 1, maxInFlight: 1 },
  );
  expect(b.waitingMs()).toBe(0);
  const first = b.push(1);
  await new Promise((r) => setImmediate(r));
  const second = b.push(2);
  await new Promise((r) => setTimeout(r, 30));
  // The first runs (it is not waiting); the second has waited since it was pushed.
  expect(b.waitingMs()).toBeGreaterThanOrEqual(25);
  release();
  await Promise.all([first, second]);
  expect(b.waitingMs()).toBe(0);
});

it('with lingerMs, a lone item waits for others to share its batch; a batch that ends takes the queue at once', async () => {
  const calls: number[][] = [];
  const b = batcher(
    async (items: number[]) => {
      calls.push(items);
      return items;
    },
    { maxBatch: 100, maxInFlight: 1, lingerMs: 30 },
  );
  const started = performance.now();
  const first = b.push(1);
  await new Promise((r) => setTimeout(r, 10));
  const second = b.push(2);
  expect(calls).toEqual([]);
  expect(await Promise.all([first, second])).toEqual([1, 2]);
  expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  expect(calls).toEqual([[1, 2]]);
});

it('with turnBetween, the event loop takes a turn between two batches of a long queue', async () => {
  const order: string[] = [];
  const b = batcher(
    async (items: number[]) => {
      order.push(`batch ${items.join(',')}`);
      // What a socket's read looks like to the loop: a callback of the next turn.
      setImmediate(() => order.push('turn'));
      return items;
    },
    { maxBatch: 2, maxInFlight: 1, turnBetween: true },
  );
  expect(await Promise.all([1, 2, 3, 4, 5].map((n) => b.push(n)))).toEqual([1, 2, 3, 4, 5]);
  await b.drained();
  expect(order.slice(0, 5)).toEqual(['batch 1,2', 'turn', 'batch 3,4', 'turn', 'batch 5']);
});
