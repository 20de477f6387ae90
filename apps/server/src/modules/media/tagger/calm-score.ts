import type { MediaSignals } from './tagger.ts';

/**
 * Calm score, 0 … 1 — how well a post suits sleep mode (spec §4.7). Documented weights:
 *   0.40  × darkness      (1 − mean luma)
 *   0.20  × mutedness     (1 − mean chroma)
 *   0.15  × low detail    (1 − mean gradient)
 *   0.125 × low motion    (1 − motion; still images count half: a photo is neither still video nor lively)
 *   0.125 × quiet audio   (no track or silence = 1; −60 dBFS → 1 … −10 dBFS → 0; still images count half)
 * minus 0.25 for a crowd (3+ people) and 0.20 when vehicles are seen; plus 0.15 for a sleep hashtag (#сон).
 * A post is `for_sleep` at 0.65 or more (FOR_SLEEP_THRESHOLD); `calm` from 0.55.
 */
export const FOR_SLEEP_THRESHOLD = 0.65;
export const CALM_THRESHOLD = 0.55;

export interface CalmFactors {
  crowd: boolean;
  vehicles: boolean;
  sleepHashtag: boolean;
}

export function quietness(loudnessDb: number | null): number {
  if (loudnessDb === null) return 1;
  return Math.min(1, Math.max(0, (-10 - loudnessDb) / 50));
}

export function calmScore(s: MediaSignals, f: CalmFactors): number {
  const still = s.kind !== 'video';
  const score =
    0.4 * (1 - s.brightness) +
    0.2 * (1 - s.saturation) +
    0.15 * (1 - s.detail) +
    0.125 * (still ? 0.5 : 1 - s.motion) +
    0.125 * (still ? 0.5 : quietness(s.loudnessDb)) -
    (f.crowd ? 0.25 : 0) -
    (f.vehicles ? 0.2 : 0) +
    (f.sleepHashtag ? 0.15 : 0);
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
