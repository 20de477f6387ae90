import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { serverProjects } from './apps/server/vitest.projects.ts';
import { webProjects } from './apps/web/vitest.projects.ts';

/**
 * Test files at once. Vitest's default is one less than the cores — a single worker on this 2-core machine, so
 * ~200 files ran one after another although most server files spend their time waiting (sockets, job polls,
 * child processes, timers), not computing. Twice the cores keeps both busy; each server worker holds one
 * in-memory PGlite (a few hundred MB), well inside the machine's memory. KADR_TEST_WORKERS overrides.
 */
const workers =
  Number(process.env.KADR_TEST_WORKERS) || Math.min(6, Math.max(2, os.availableParallelism() * 2));

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      'packages/contract',
      ...serverProjects,
      ...webProjects,
      // The benches' own tools that a wrong figure would come from (they run no bench).
      { test: { name: 'bench', root: 'bench', include: ['*.test.ts'] } },
    ],
  },
});
