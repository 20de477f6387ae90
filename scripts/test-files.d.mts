/** Types for scripts/test-files.mjs (used by the vitest.projects.ts of apps/server and apps/web). */
export declare function testFiles(dir: string, pattern?: RegExp): string[];
