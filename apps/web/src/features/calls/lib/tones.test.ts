import { describe, expect, it } from 'vitest';
import { synthesiseWav } from './tones.ts';

describe('call tones', () => {
  it('synthesises a playable 16 kHz mono WAV of one period, silent between the notes', () => {
    const wav = synthesiseWav({ notes: [[425, 0, 1]], period: 5, volume: 0.25 });
    const view = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.slice(0, 4))).toBe('RIFF');
    expect(String.fromCharCode(...wav.slice(8, 12))).toBe('WAVE');
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(40, true)).toBe(5 * 16_000 * 2);
    const sample = (seconds: number) => view.getInt16(44 + Math.round(seconds * 16_000) * 2, true);
    const peak = Math.max(...Array.from({ length: 100 }, (_, i) => Math.abs(sample(0.5 + i / 16_000))));
    expect(peak).toBeGreaterThan(0.2 * 32767);
    expect(sample(3)).toBe(0);
  });
});
