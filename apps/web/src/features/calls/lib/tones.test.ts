import { afterEach, describe, expect, it, vi } from 'vitest';
import { playTone, prepareTone, synthesiseSteps, synthesiseWav } from './tones.ts';

describe('call tones', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('synthesises a playable 8 kHz mono WAV of one period, silent between the notes', () => {
    const wav = synthesiseWav({ notes: [[425, 0, 1]], period: 5, volume: 0.25 });
    const view = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.slice(0, 4))).toBe('RIFF');
    expect(String.fromCharCode(...wav.slice(8, 12))).toBe('WAVE');
    expect(view.getUint32(24, true)).toBe(8_000);
    expect(view.getUint32(40, true)).toBe(5 * 8_000 * 2);
    const sample = (seconds: number) => view.getInt16(44 + Math.round(seconds * 8_000) * 2, true);
    const peak = Math.max(...Array.from({ length: 100 }, (_, i) => Math.abs(sample(0.5 + i / 8_000))));
    expect(peak).toBeGreaterThan(0.2 * 32767);
    expect(sample(3)).toBe(0);
  });

  it('makes the same file in small steps as at once', () => {
    const pattern = { notes: [[425, 0, 1]] as const, period: 5, volume: 0.25 };
    const steps = synthesiseSteps(pattern);
    let yields = 0;
    let next = steps.next();
    while (!next.done) {
      yields += 1;
      next = steps.next();
    }
    // 8,000 samples of tone, a step per 2,000.
    expect(yields).toBe(4);
    // Compared as bytes: toEqual walks 160,000 elements one by one.
    expect(Buffer.compare(next.value, synthesiseWav(pattern))).toBe(0);
  });

  it('prepares a tone one step per idle task, and a ring before the last step finishes it at once', () => {
    const createObjectURL = vi.fn(() => 'blob:tone');
    vi.stubGlobal('URL', Object.assign(Object.create(URL), { createObjectURL }));
    const play = vi.fn(() => Promise.resolve());
    vi.stubGlobal(
      'Audio',
      vi.fn(function Audio(this: { play: typeof play }, src: string) {
        this.play = play;
        expect(src).toBe('blob:tone');
      }),
    );
    const queue: Array<() => void> = [];
    prepareTone('ringback', (step) => queue.push(step));
    expect(queue).toHaveLength(1);
    queue.shift()?.();
    queue.shift()?.();
    // Two steps in: not made yet; the ring finishes the synthesis where it stopped.
    expect(createObjectURL).not.toHaveBeenCalled();
    playTone('ringback');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(play).toHaveBeenCalledTimes(1);
    // The idle step left in the queue finds the tone made and does nothing.
    for (let step = queue.shift(); step; step = queue.shift()) step();
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(queue).toHaveLength(0);
  });
});
