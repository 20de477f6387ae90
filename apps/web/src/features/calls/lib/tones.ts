/**
 * Call sounds made here with WebAudio oscillators (nothing downloaded): the callee's ringtone and the
 * caller's ringback (425 Hz, 1 s on / 4 s off, the tone Russian networks play). A page that has had no
 * user gesture yet may keep the AudioContext suspended; the call itself is unaffected.
 */

export type Tone = 'ringtone' | 'ringback';

interface Pattern {
  /** [frequency Hz, start s, length s] within one period. */
  notes: ReadonlyArray<readonly [number, number, number]>;
  period: number;
  gain: number;
}

const PATTERNS: Record<Tone, Pattern> = {
  ringback: { notes: [[425, 0, 1]], period: 5, gain: 0.08 },
  ringtone: {
    notes: [
      [659, 0, 0.18],
      [784, 0.2, 0.18],
      [988, 0.4, 0.3],
      [659, 1, 0.18],
      [784, 1.2, 0.18],
      [988, 1.4, 0.3],
    ],
    period: 3,
    gain: 0.12,
  },
};

/** Starts a tone looping until the returned stop() is called. */
export function playTone(tone: Tone): () => void {
  const Context = window.AudioContext;
  if (!Context) return () => undefined;
  const ctx = new Context();
  void ctx.resume().catch(() => undefined);
  const pattern = PATTERNS[tone];
  let next = ctx.currentTime + 0.05;
  const schedule = () => {
    // Keep two periods scheduled ahead so a busy main thread does not leave gaps.
    while (next < ctx.currentTime + pattern.period * 2) {
      for (const [frequency, start, length] of pattern.notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = 'sine';
        osc.frequency.value = frequency;
        const at = next + start;
        gain.gain.setValueAtTime(0, at);
        gain.gain.linearRampToValueAtTime(pattern.gain, at + 0.02);
        gain.gain.setValueAtTime(pattern.gain, at + length - 0.03);
        gain.gain.linearRampToValueAtTime(0, at + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(at);
        osc.stop(at + length + 0.01);
      }
      next += pattern.period;
    }
  };
  schedule();
  const timer = window.setInterval(schedule, 1000);
  return () => {
    window.clearInterval(timer);
    void ctx.close().catch(() => undefined);
  };
}
