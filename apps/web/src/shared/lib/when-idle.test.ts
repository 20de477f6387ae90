import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdUntilPageShown, markPageShown, whenIdle } from './when-idle.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('runs in an idle callback with the given timeout, and cancels it', () => {
    const callbacks: Array<() => void> = [];
    const request = vi.fn((cb: () => void, _options?: { timeout: number }) => callbacks.push(cb));
    const cancel = vi.fn();
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', cancel);
    const run = vi.fn();
    const stop = whenIdle(run, 1500);
    expect(request).toHaveBeenCalledWith(expect.any(Function), { timeout: 1500 });
    expect(run).not.toHaveBeenCalled();
    callbacks[0]?.();
    expect(run).toHaveBeenCalledTimes(1);
    stop();
    expect(cancel).toHaveBeenCalledWith(1);
  });

  it('falls back to a short timer where idle callbacks do not exist', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    const stop = whenIdle(run);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    whenIdle(cancelled)();
    vi.advanceTimersByTime(500);
    expect(cancelled).not.toHaveBeenCalled();
    expect(stop).toBeTypeOf('function');
  });
});

describe('whenIdle after a frame', () => {
  it('waits until the page has rendered, then for idle; a cancel before that drops it', () => {
    const callbacks: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => callbacks.push(cb));
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    holdUntilPageShown();
    const run = vi.fn();
    const dropped = vi.fn();
    whenIdle(run);
    whenIdle(dropped)();
    expect(callbacks).toHaveLength(0);
    markPageShown();
    expect(callbacks).toHaveLength(1);
    callbacks[0]?.();
    expect(run).toHaveBeenCalledTimes(1);
    expect(dropped).not.toHaveBeenCalled();
    // Once shown, later work goes straight to idle.
    whenIdle(vi.fn());
    expect(callbacks).toHaveLength(2);
  });
});
