/**
 * Call sounds made here (nothing downloaded, no audio files shipped): the callee's ringtone and the
 * caller's ringback (425 Hz, 1 s on / 4 s off, the tone Russian networks play), synthesised once into a
 * small WAV and looped by an <audio> element. Not WebAudio: the first `new AudioContext()` blocks the
 * main thread while the audio service starts (measured 3.9 s in Chromium on a loaded machine), which
 * froze the incoming modal; a media element starts its output off the main thread.
 */

export type Tone = 'ringtone' | 'ringback';

export interface Pattern {
  /** [frequency Hz, start s, length s] within one period. */
  notes: ReadonlyArray<readonly [number, number, number]>;
  period: number;
  volume: number;
}

const PATTERNS: Record<Tone, Pattern> = {
  ringback: { notes: [[425, 0, 1]], period: 5, volume: 0.25 },
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
    volume: 0.35,
  },
};

/**
 * Telephone quality, as the network plays these tones (the highest note, 988 Hz, is far under the 4 kHz
 * limit): the ringback's file is 80 KB. At 16 kHz, making its 160 KB Blob and URL alone was a 55–72 ms task
 * at 4× CPU on every signed-in page's load.
 */
const SAMPLE_RATE = 8_000;

/** Samples written per step of the synthesis: ~1–2 ms of work, far under a long task even at 4× CPU. */
const SAMPLES_PER_STEP = 2_000;

/**
 * One period of the pattern as 16-bit mono PCM in a WAV container, with 10 ms fades against clicks, made
 * in steps: the generator yields after every SAMPLES_PER_STEP samples and returns the file's bytes.
 */
export function* synthesiseSteps(pattern: Pattern): Generator<void, Uint8Array<ArrayBuffer>> {
  const samples = Math.round(pattern.period * SAMPLE_RATE);
  const bytes = new Uint8Array(44 + samples * 2);
  const pcm = new Int16Array(bytes.buffer, 44, samples);
  const fade = 0.01 * SAMPLE_RATE;
  for (const [frequency, start, length] of pattern.notes) {
    const from = Math.round(start * SAMPLE_RATE);
    const count = Math.min(Math.round(length * SAMPLE_RATE), samples - from);
    for (let i = 0; i < count; i += 1) {
      const envelope = Math.min(1, i / fade, (count - i) / fade);
      const value = Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE) * envelope * pattern.volume;
      pcm[from + i] = Math.round(value * 32767);
      if (i % SAMPLES_PER_STEP === SAMPLES_PER_STEP - 1) yield;
    }
  }
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i += 1) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.byteLength, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.byteLength, true);
  return bytes;
}

/** The whole synthesis at once (a tone asked for before its steps ran at idle). */
export function synthesiseWav(pattern: Pattern): Uint8Array<ArrayBuffer> {
  const steps = synthesiseSteps(pattern);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

const urls = new Map<Tone, string>();
/** Syntheses under way at idle, resumed where they stopped if the tone is needed sooner. */
const pending = new Map<Tone, Generator<void, Uint8Array<ArrayBuffer>>>();

function store(tone: Tone, wav: Uint8Array<ArrayBuffer>): string {
  const url = URL.createObjectURL(new Blob([wav], { type: 'audio/wav' }));
  urls.set(tone, url);
  pending.delete(tone);
  return url;
}

function toneUrl(tone: Tone): string {
  const url = urls.get(tone);
  if (url) return url;
  const steps = pending.get(tone) ?? synthesiseSteps(PATTERNS[tone]);
  for (;;) {
    const next = steps.next();
    if (next.done) return store(tone, next.value);
  }
}

/**
 * Synthesises a tone ahead (at idle once signed in), so the first ring does not wait for it: one step per
 * idle task — all at once it was one 50–85 ms task at 4× CPU on every signed-in page's load.
 */
export function prepareTone(tone: Tone, later: (step: () => void) => void) {
  if (typeof URL.createObjectURL !== 'function' || urls.has(tone) || pending.has(tone)) return;
  const steps = synthesiseSteps(PATTERNS[tone]);
  pending.set(tone, steps);
  const step = () => {
    if (pending.get(tone) !== steps) return; // finished by toneUrl in the meantime
    const next = steps.next();
    if (next.done) store(tone, next.value);
    else later(step);
  };
  later(step);
}

/** Starts a tone looping until the returned stop() is called (silently nothing where autoplay is refused). */
export function playTone(tone: Tone): () => void {
  if (typeof Audio === 'undefined' || typeof URL.createObjectURL !== 'function') return () => undefined;
  const audio = new Audio(toneUrl(tone));
  audio.loop = true;
  void audio.play().catch(() => undefined);
  return () => {
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
  };
}
