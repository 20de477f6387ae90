/** Pull-to-refresh of the feed (spec §9): refresh past 80 px, the pull never shows more than 160 px. */
export const PullLimits = { threshold: 80, max: 160, resistance: 0.5 } as const;

/** How far the content follows a downward drag of `dy` px. */
export function pullOffset(dy: number): number {
  if (dy <= 0) return 0;
  return Math.min(PullLimits.max, dy * PullLimits.resistance);
}

export function pullTriggersRefresh(dy: number): boolean {
  return pullOffset(dy) >= PullLimits.threshold;
}
