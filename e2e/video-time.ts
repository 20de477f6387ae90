/**
 * How far a looping video played between two readings of its `currentTime`: the difference, or across a wrap
 * (a reading behind the last one) the rest of the clip and then the time from 0. The feed loops its clips, so
 * a first reading near a clip's end can never be followed by a greater one; sum this over the readings.
 */
export function playedBetween(last: number, now: number, length: number): number {
  if (now >= last) return now - last;
  return (Number.isFinite(length) ? Math.max(length - last, 0) : 0) + now;
}
