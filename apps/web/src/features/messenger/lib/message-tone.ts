import { type Pattern, synthesiseWav } from '../../calls/lib/tones.ts';

/** A short rising two-note chime, made here like the call tones (no audio file shipped or fetched). */
const CHIME: Pattern = {
  notes: [
    [880, 0, 0.09],
    [1175, 0.1, 0.16],
  ],
  period: 0.3,
  volume: 0.3,
};

/** A burst of messages chimes once. */
const MIN_GAP_MS = 1000;

let url: string | null = null;
let lastAt = Number.NEGATIVE_INFINITY;

/** Plays the message chime once (silently nothing where autoplay is refused or audio is missing). */
export function playMessageTone(now = Date.now()): void {
  if (typeof Audio === 'undefined' || typeof URL.createObjectURL !== 'function') return;
  if (now - lastAt < MIN_GAP_MS) return;
  lastAt = now;
  url ??= URL.createObjectURL(new Blob([synthesiseWav(CHIME)], { type: 'audio/wav' }));
  void new Audio(url).play().catch(() => undefined);
}
