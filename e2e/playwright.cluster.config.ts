import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The messenger and feed flows through the balancer: `npm run cluster` — three compiled
 * nodes on PostgreSQL, Redis and MinIO (two LiveKit nodes when installed) behind HAProxy — with the browser
 * at HAProxy's front port, so consecutive requests and the websocket land on different nodes.
 * Run with `node scripts/e2e.mjs --cluster` (it needs the machine's PostgreSQL and Redis, so it runs outside
 * the loopback namespace; everything still stays on 127.0.0.1).
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.KADR_CLUSTER_PORT ?? 3300);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  ...base,
  testMatch: ['messenger.spec.ts', 'feed.spec.ts'],
  // One balancer for both flows, and the feed flow reads the global feed: one worker.
  workers: 1,
  // Its own output folder: Playwright empties its outputDir at the start of a run, and the main run's
  // screenshots in test-results/screens are the CI's artifacts (this run comes after it in `npm run test:e2e`).
  outputDir: join(repoRoot, 'test-results', 'cluster'),
  // Migrating a fresh database and starting three nodes took over a minute on the loaded machine.
  timeout: 120_000,
  use: { ...base.use, baseURL },
  webServer: {
    command: 'node --import tsx scripts/cluster.ts',
    cwd: repoRoot,
    url: `${baseURL}${apiUrl(healthEndpoints.get)}`,
    timeout: 600_000,
    reuseExistingServer: false,
    // scripts/cluster.ts stops the nodes, HAProxy, MinIO and LiveKit and drops the database on SIGTERM.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 60_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      KADR_CLUSTER_PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    },
  },
});
