import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    // Files share a worker process instead of a fresh one each (a fresh process re-imported Fastify, Kysely and
    // PGlite for every one of ~140 files); test/setup.ts gives each file the server's modules fresh and puts the
    // environment back after it.
    setupFiles: ['test/setup.ts'],
    isolate: false,
    // The other suites' servers and PGlite databases keep both cores busy during a run, and under the default
    // SCHED_IDLE a transcode got no CPU at all: media suites timed out in CI. Media runs at the servers' own
    // priority here; the suites that check the idle scheduling itself set MEDIA_SCHEDULING=idle.
    env: { MEDIA_SCHEDULING: 'none' },
  },
});
