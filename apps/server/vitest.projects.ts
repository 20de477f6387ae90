import fs from 'node:fs';
import path from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { testFiles } from '../../scripts/test-files.mjs';

/**
 * The server tests as two projects of the root config (vitest.config.ts). Most files share a worker process
 * (`isolate: false`) instead of a fresh one each, which re-imported Fastify, Kysely and PGlite for every one of
 * ~140 files; test/setup.ts gives each file the server's modules fresh and puts the environment back after it.
 * A file that checks its own process (which threads it runs, how its heap grows) says `@own-process` and runs
 * in `server-isolated`, where each file still gets a process of its own: in a shared one another file has already
 * loaded libvips, or left garbage that a heap measurement would count. `--project 'server*'` runs both.
 */
const root = import.meta.dirname;
const OWN_PROCESS = '@own-process';

// Each project names its files, so that a run's own `--exclude` (the PostgreSQL run's, scripts/test-server-pg.mjs)
// still applies: a project's `exclude` option replaces it.
const files = [...testFiles(path.join(root, 'src')), ...testFiles(path.join(root, 'test'))].map((file) =>
  path.relative(root, file),
);
const ownProcess = files.filter((file) =>
  fs.readFileSync(path.join(root, file), 'utf8').includes(OWN_PROCESS),
);
const shared = files.filter((file) => !ownProcess.includes(file));

function project(test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return {
    root,
    test: {
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
      globalSetup: ['test/global-setup.ts'],
      setupFiles: ['test/setup.ts'],
      // The other suites' servers and PGlite databases keep both cores busy during a run, and under the default
      // SCHED_IDLE a transcode got no CPU at all: media suites timed out in CI. Media runs at the servers' own
      // priority here; the suites that check the idle scheduling itself set MEDIA_SCHEDULING=idle.
      env: { MEDIA_SCHEDULING: 'none' },
      ...test,
    },
  };
}

export const serverProjects = [
  project({ name: 'server', include: shared, isolate: false }),
  project({ name: 'server-isolated', include: ownProcess }),
];
