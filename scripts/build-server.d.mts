export const serverBundle: string;
export function serverBuildStale(): boolean;
export function buildServer(options?: { force?: boolean; log?: (line: string) => void }): Promise<boolean>;
export function compileOptions(entry: string, outfile: string): import('esbuild').BuildOptions;
