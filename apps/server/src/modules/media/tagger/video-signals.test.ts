import { describe, expect, it } from 'vitest';
import { frameDiffs, motionOf, sampleTimes, sceneCuts } from './video-signals.ts';

const flat = (value: number) => new Uint8Array(64 * 64).fill(value);

describe('video over its whole length', () => {
  it('samples frames evenly over the whole clip, more for a longer one', () => {
    expect(sampleTimes(6, [])).toEqual([0.75, 2.25, 3.75, 5.25]);
    const minute = sampleTimes(60, []);
    expect(minute).toHaveLength(8);
    expect(minute[0]).toBeLessThan(5);
    expect(minute.at(-1)).toBeGreaterThan(55);
  });

  it('adds a frame a second into every new scene that no sample is near', () => {
    const times = sampleTimes(12, [9.5]);
    expect(times).toContain(10.5);
    // A cut right beside an even sample adds nothing.
    expect(sampleTimes(12, [3.6])).toHaveLength(4);
  });

  it('finds a cut as a jump far above the usual change, and leaves it out of motion', () => {
    const greys = [flat(100), flat(101), flat(100), flat(101), flat(220), flat(221), flat(220)];
    const diffs = frameDiffs(greys);
    const cuts = sceneCuts(diffs);
    expect(cuts).toEqual([3]);
    // Without the cut the clip is still: calm, not dynamic.
    expect(motionOf(diffs, cuts)).toBeLessThan(0.05);
    expect(motionOf(diffs, [])).toBeGreaterThan(0.1);
  });

  it('a steadily moving clip has no cuts and counts as motion', () => {
    const greys = Array.from({ length: 10 }, (_, i) => flat(i % 2 === 0 ? 60 : 110));
    const diffs = frameDiffs(greys);
    expect(sceneCuts(diffs)).toEqual([]);
    expect(motionOf(diffs, sceneCuts(diffs))).toBeGreaterThan(0.15);
  });
});
