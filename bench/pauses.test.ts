import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { mainThreadWaitMs } from './lib.ts';
import { recordPauses, threadCpuMs } from './pauses.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds this thread: spinning until it has run `ms` on a core (however long a loaded machine makes that take),
 * or asleep off it for `ms`. Answers when it began, on the clock `Pause.at` uses.
 */
function hold(ms: number, how: 'spin' | 'sleep'): number {
  const began = performance.timeOrigin + performance.now();
  if (how === 'sleep') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  else {
    const until = threadCpuMs() + ms;
    while (threadCpuMs() < until) {}
  }
  return began;
}

describe.skipIf(process.platform !== 'linux')('what a stall was made of', () => {
  it("gives a long loop turn the CPU time the thread ran in it: all of a spin's, little of a sleep's", async () => {
    const pauses = recordPauses('bench');
    await sleep(20);
    const spinAt = hold(60, 'spin');
    await sleep(20);
    const sleepAt = hold(60, 'sleep');
    await sleep(20);
    const turnAt = (at: number) =>
      pauses.find((p) => p.kind === 'loop turn' && p.at <= at && at <= p.at + p.ms);
    const spun = turnAt(spinAt);
    const slept = turnAt(sleepAt);
    expect(spun?.cpuMs).toBeGreaterThanOrEqual(60);
    expect(spun?.cpuMs).toBeLessThanOrEqual(spun?.ms as number);
    expect(slept?.ms).toBeGreaterThanOrEqual(60);
    // Asleep the thread runs nothing but the recorder's own tick, loaded machine or not.
    expect(slept?.cpuMs).toBeLessThan(10);
  }, 20_000);

  it('counts the time the main thread stood runnable while every core was taken', async () => {
    const before = mainThreadWaitMs(process.pid);
    expect(Number.isFinite(before)).toBe(true);
    // One spinning thread more than there are cores for 400 ms: the main thread, spinning too, must queue for one.
    const spinners = Array.from(
      { length: os.availableParallelism() + 1 },
      () =>
        new Worker(
          'const until = Date.now() + 400; while (Date.now() < until) {} require("node:worker_threads").parentPort.postMessage(0);',
          { eval: true },
        ),
    );
    const done = Promise.all(spinners.map((w) => new Promise((resolve) => w.once('message', resolve))));
    hold(200, 'spin');
    await done;
    await Promise.all(spinners.map((w) => w.terminate()));
    expect(mainThreadWaitMs(process.pid) - before).toBeGreaterThan(1);
    expect(mainThreadWaitMs(999_999_999)).toBeNaN();
  }, 20_000);
});
