/** Types for scripts/supported-node.mjs (used by apps/server/test/node24-start.test.ts). */
export declare function supportedEnv(
  current?: string,
  env?: NodeJS.ProcessEnv,
  install?: () => string,
): NodeJS.ProcessEnv;
