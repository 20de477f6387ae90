import { describe, expect, it } from 'vitest';
import { VOICE_BARS, waveformBars } from './waveform-bars.ts';

describe('a voice message’s bars', () => {
  it('brings the 128 samples of a long message to the bars a bubble fits, keeping each stretch’s peak', () => {
    const samples = Array.from({ length: 128 }, (_, i) => (i === 100 ? 97 : i % 10));
    const bars = waveformBars(samples);
    expect(bars).toHaveLength(VOICE_BARS);
    expect(Math.max(...bars)).toBe(97);
    expect(bars.every((h) => h >= 0 && h <= 100)).toBe(true);
  });

  it('keeps a short waveform as it is, and draws a flat line without one', () => {
    expect(waveformBars([5, 60, 20])).toEqual([5, 60, 20]);
    expect(waveformBars(undefined)).toEqual(new Array(VOICE_BARS).fill(8));
  });
});
