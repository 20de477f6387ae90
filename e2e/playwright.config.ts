import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Two workers, each with a server of its own (its own port, data directory and media-server ports): the flows
 * read global state (the feed, the people search), so two workers on one server saw each other's posts. On
 * this 2-core machine one worker left the cores idle while a flow waited (uploads processing, sockets, servers
 * starting); two took the 84 flows from 12–14 to 10–11 minutes. E2E_WORKERS=1 runs them one after another.
 */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const firstPort = Number(process.env.E2E_PORT ?? 3100);
/** Playwright sets TEST_PARALLEL_INDEX (0 … workers − 1) in each worker before it loads this config. */
const parallelIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const serverUrl = (index: number) => `http://localhost:${firstPort + index}`;
const baseURL = serverUrl(parallelIndex);

// The config is evaluated in the runner and again in each worker; workers inherit the runner's env,
// so the data directories are created once and shared (global-teardown.ts removes the parent).
process.env.KADR_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'kadr-e2e-'));
const dataDir = process.env.KADR_E2E_DATA_DIR;

const chromium = { executablePath: chromiumPath, args: chromiumArgs };

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: join(repoRoot, 'test-results'),
  fullyParallel: false,
  workers,
  // One retry: the flows share a 2-core machine whose speed varies 2-3x between runs, and a flow that fails once
  // to a race the machine's load exposed is listed as "flaky" in the report (look for it), not hidden. A flow
  // that fails twice fails the run.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL,
    locale: 'ru-RU',
    // A failed flow keeps its trace (actions, DOM snapshots, network, console), without the screencast: the
    // screenshots made Chromium's browser and GPU processes encode frames all through every flow, and took a
    // quarter of the flows' CPU time (docs/PITFALLS.md, "Close the contexts a flow opens").
    trace: { mode: 'retain-on-failure', screenshots: false },
    // A click on something that never shows fails here, not after the whole flow's limit (up to 10 min).
    actionTimeout: 90_000,
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'mobile',
      // Wide-screen layouts are checked in the desktop project only. Flows tagged @wip have not passed
      // yet (listed in the open issues' notes) and stay out of the run until they do.
      grepInvert: /@desktop-only|@wip/,
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: false,
        hasTouch: false,
      },
    },
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], browserName: 'chromium', viewport: { width: 1280, height: 800 } },
      grep: /@desktop/,
      grepInvert: /@wip/,
    },
  ],
  webServer: Array.from({ length: workers }, (_, index) => ({
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${serverUrl(index)}${apiUrl(healthEndpoints.get)}`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    // Every flow registers its own users from 127.0.0.1: far more than the per-address sign-up limit
    // (30 per 15 min) a real client meets. The limit itself is tested in apps/server/test/auth*.test.ts.
    env: {
      PORT: String(firstPort + index),
      DATA_DIR: join(dataDir, `server-${index}`),
      NODE_ENV: 'production',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      // The moderation flow's moderator (e2e/moderation.spec.ts).
      MODERATOR_USERNAMES: 'e2e_moderator',
      // A live stream whose host's media connection is slow to come up (or absent) is not ended mid-flow.
      LIVESTREAM_HOST_JOIN_TIMEOUT_MS: '600000',
      // Each server's embedded media server on ports of its own (the first keeps the defaults).
      ...(index > 0 && {
        LIVEKIT_PORT: String(7880 + index * 10),
        LIVEKIT_RTC_TCP_PORT: String(7881 + index * 10),
        LIVEKIT_RTC_UDP_PORTS: `${40000 + index * 1000}-${40999 + index * 1000}`,
      }),
    },
  })),
});
