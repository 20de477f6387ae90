/** Types for scripts/server-pg-tests.mjs (used by apps/server/test/server-pg-tests.test.ts). */
export declare function testsLeftOutOnPostgres(serverRoot: string): {
  total: number;
  left: { file: string; why: 'embedded only' | 'no database' }[];
};
