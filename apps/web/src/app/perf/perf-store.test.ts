import { describe, expect, it } from 'vitest';
import { fps, isSlow, PerfStore } from './perf-store.ts';

describe('PerfStore', () => {
  it('keeps the last 50 switches, 100 sends, 100 scrolls and 50 memory samples', () => {
    const store = new PerfStore(() => 0);
    for (let i = 0; i < 130; i += 1) {
      store.record('chatSwitch', i);
      store.record('messageSend', i);
      store.record('scroll', 60);
      store.record('memory', i);
    }
    expect(store.list('chatSwitch')).toHaveLength(50);
    expect(store.list('chatSwitch')[0]?.value).toBe(80);
    expect(store.list('messageSend')).toHaveLength(100);
    expect(store.list('scroll')).toHaveLength(100);
    expect(store.list('memory')).toHaveLength(50);
  });

  it('flags slow samples at the spec thresholds', () => {
    expect(isSlow('chatSwitch', 100)).toBe(false);
    expect(isSlow('chatSwitch', 101)).toBe(true);
    expect(isSlow('messageSend', 50)).toBe(false);
    expect(isSlow('messageSend', 51)).toBe(true);
    expect(isSlow('scroll', 55)).toBe(false);
    expect(isSlow('scroll', 54.9)).toBe(true);
    expect(isSlow('memory', 200)).toBe(false);
    expect(isSlow('memory', 201)).toBe(true);
    const store = new PerfStore();
    store.record('messageSend', 20);
    store.record('messageSend', 80);
    expect(store.summary('messageSend')).toEqual({ count: 2, last: 80, average: 50, slow: 1 });
  });

  it('turns frames over a burst into fps', () => {
    expect(fps(30, 500)).toBe(60);
    expect(fps(10, 500)).toBe(20);
  });
});
