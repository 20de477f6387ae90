/** Types for scripts/captured.mjs. */
export interface Captured {
  status: number;
  output: string;
  seconds: number;
}
export declare function runCaptured(
  command: string,
  args: string[],
  options?: { cwd?: string },
): Promise<Captured>;
export declare function inLanes<T>(tasks: Array<() => Promise<T>>, jobs: number): Promise<T[]>;
