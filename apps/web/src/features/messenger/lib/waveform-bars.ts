/** Bars a voice bubble draws: at 2 px each with a 1 px gap they fit the narrowest bubble (about 150 px). */
export const VOICE_BARS = 48;

/**
 * The server's waveform (up to 128 heights) brought to `count` bars, each the loudest of the samples it
 * covers, so a long message keeps its peaks and never draws wider than its bubble. Empty: a flat line.
 */
export function waveformBars(samples: readonly number[] | undefined, count: number = VOICE_BARS): number[] {
  if (!samples || samples.length === 0) return new Array(count).fill(8);
  if (samples.length <= count) return [...samples];
  const bars: number[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * samples.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * samples.length) / count));
    bars.push(Math.max(...samples.slice(from, to)));
  }
  return bars;
}
