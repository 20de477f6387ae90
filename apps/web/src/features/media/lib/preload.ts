/** Preload windows of spec §9, chosen by connection. */
export interface PreloadPolicy {
  ahead: number;
  behind: number;
  /** Posts this far from the active one (or farther) release their video. */
  unload: number;
  mode: 'metadata' | 'auto';
}

export const PreloadPolicies = {
  slow: { ahead: 1, behind: 0, unload: 2, mode: 'metadata' },
  mobile: { ahead: 2, behind: 1, unload: 3, mode: 'auto' },
  desktop: { ahead: 3, behind: 2, unload: 6, mode: 'auto' },
} as const satisfies Record<string, PreloadPolicy>;

export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
  /** Mbit/s. */
  downlink?: number;
}

/** Save-data or a slow link (2g, slow-2g, downlink below 0.5) wins over the device class. */
export function choosePreloadPolicy(
  connection: ConnectionInfo | undefined,
  isMobile: boolean,
): PreloadPolicy {
  const slow =
    connection !== undefined &&
    (connection.saveData === true ||
      connection.effectiveType === '2g' ||
      connection.effectiveType === 'slow-2g' ||
      (typeof connection.downlink === 'number' && connection.downlink < 0.5));
  if (slow) return PreloadPolicies.slow;
  return isMobile ? PreloadPolicies.mobile : PreloadPolicies.desktop;
}

/**
 * What a post's media should do given its distance from the active post: play, preload, keep what it
 * has, or release it.
 */
export type PreloadState = 'active' | 'preload' | 'idle' | 'unload';

export function preloadStateFor(index: number, activeIndex: number, policy: PreloadPolicy): PreloadState {
  const distance = index - activeIndex;
  if (distance === 0) return 'active';
  if (Math.abs(distance) >= policy.unload) return 'unload';
  if ((distance > 0 && distance <= policy.ahead) || (distance < 0 && -distance <= policy.behind))
    return 'preload';
  return 'idle';
}

/** Posts farther than this are not mounted at all (their media was released at the unload distance). */
export function isMounted(index: number, activeIndex: number, policy: PreloadPolicy): boolean {
  return Math.abs(index - activeIndex) <= policy.unload;
}
