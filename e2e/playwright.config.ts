import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

// The config is evaluated in the runner and again in each worker; workers inherit the runner's env,
// so the data directory is created once and shared.
process.env.KADR_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'kadr-e2e-'));
const dataDir = process.env.KADR_E2E_DATA_DIR;

const chromium = { executablePath: chromiumPath, args: chromiumArgs };

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: join(repoRoot, 'test-results'),
  fullyParallel: false,
  workers: 1,
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
    trace: 'retain-on-failure',
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
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: repoRoot,
    url: `${baseURL}${apiUrl(healthEndpoints.get)}`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // Every flow registers its own users from 127.0.0.1: far more than the per-address sign-up limit
    // (30 per 15 min) a real client meets. The limit itself is tested in apps/server/test/auth*.test.ts.
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      // The moderation flow's moderator (e2e/moderation.spec.ts).
      MODERATOR_USERNAMES: 'e2e_moderator',
      // A live stream whose host's media connection is slow to come up (or absent) is not ended mid-flow.
      LIVESTREAM_HOST_JOIN_TIMEOUT_MS: '600000',
    },
  },
});
