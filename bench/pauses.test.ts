import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { mainThreadWaitMs } from './lib.ts';
import { recordPauses } from './pauses.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds this thread for `ms`: spinning on a core, or asleep off it. */
function hold(ms: number, how: 'spin' | 'sleep') {
  if (how === 'sleep') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return;
  }
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe.skipIf(process.platform !== 'linux')('what a stall was made of', () => {
  it("gives a long loop turn the CPU time the thread ran in it: all of a spin's, little of a sleep's", async () => {
    const pauses = recordPauses('bench');
    await sleep(20);
    hold(80, 'spin');
    await sleep(20);
    hold(80, 'sleep');
    await sleep(20);
    const turns = pauses.filter((p) => p.kind === 'loop turn' && p.ms >= 70);
    expect(turns).toHaveLength(2);
    const [spun, slept] = turns as [(typeof turns)[0], (typeof turns)[0]];
    expect(spun.cpuMs).toBeGreaterThan(spun.ms * 0.6);
    expect(slept.cpuMs).toBeLessThan(slept.ms * 0.3);
  });

  it('counts the time the main thread stood runnable while every core was taken', async () => {
    const before = mainThreadWaitMs(process.pid);
    expect(Number.isFinite(before)).toBe(true);
    // One spinning thread more than there are cores: the main thread, spinning too, must queue for one.
    const spinners = Array.from(
      { length: os.availableParallelism() + 1 },
      () =>
        new Worker(
          'const until = Date.now() + 400; while (Date.now() < until) {} require("node:worker_threads").parentPort.postMessage(0);',
          { eval: true },
        ),
    );
    const done = Promise.all(spinners.map((w) => new Promise((resolve) => w.once('message', resolve))));
    hold(400, 'spin');
    await done;
    await Promise.all(spinners.map((w) => w.terminate()));
    expect(mainThreadWaitMs(process.pid) - before).toBeGreaterThan(1);
    expect(mainThreadWaitMs(999_999_999)).toBeNaN();
  });
});
