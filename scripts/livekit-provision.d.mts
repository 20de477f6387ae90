export const LIVEKIT_VERSION: string;
export const livekitTarget: string;
export const NO_GO_MESSAGE: string;
export function binaryVersion(file: string): string | null;
export function goVersion(): string | null;
export type LivekitPlan = 'external' | 'custom' | 'ready' | 'build' | 'no-go' | 'skip';
export function livekitPlan(
  env: Record<string, string | undefined>,
  facts: { installedVersion: string | null; goVersion: string | null },
): LivekitPlan;
