import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToMain } from './yield-to-main.ts';

describe('yieldToMain', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("resumes in a later task, not in the current task's microtasks, without a timer", async () => {
    vi.stubGlobal('scheduler', undefined);
    const timer = vi.spyOn(globalThis, 'setTimeout');
    let resumed = false;
    const done = yieldToMain().then(() => {
      resumed = true;
    });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(resumed).toBe(false);
    await done;
    expect(resumed).toBe(true);
    // A timer would wait a second or more in a hidden tab.
    expect(timer).not.toHaveBeenCalled();
    timer.mockRestore();
  });

  it("uses the browser's scheduler.yield where there is one", async () => {
    const yieldFn = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yieldFn });
    await yieldToMain();
    expect(yieldFn).toHaveBeenCalledTimes(1);
  });
});
