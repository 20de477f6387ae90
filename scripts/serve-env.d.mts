export declare const SERVER_FLAGS: string[];
export declare function serverFlags(root: string, env: Record<string, string | undefined>): string[];
export declare function makesNewDatabase(root: string, env: Record<string, string | undefined>): boolean;
export declare function serveEnvText(
  node: string,
  env: Record<string, string | undefined>,
  callerEnv: Record<string, string | undefined>,
  options?: { makeDatabase?: boolean; flags?: string[] },
): string;
