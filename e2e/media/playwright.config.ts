import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath, repoRoot } from './stack.ts';

const WEBKIT_FILES = 'webkit-*.e2e.ts';

// Run through `npm run test:e2e:media` (scripts/e2e-media.mjs): it installs livekit-server if needed and
// runs this inside a network namespace that has only loopback.
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  // Flows tagged @wip have not passed on the real plane yet (see the open issues' notes).
  grepInvert: /@wip/,
  outputDir: path.join(repoRoot, 'test-results/media'),
  fullyParallel: false,
  // Two files at once on the one stack (every flow registers its own people and rooms): a call's ring timeout
  // and a stream's waits leave a core free that the other worker uses. 7.3 → 5.1 minutes on this 2-core machine.
  workers: Math.max(1, Number(process.env.E2E_MEDIA_WORKERS ?? 2)),
  // One retry, as in the main flows: a pass on retry is reported as "flaky"; a test that fails twice fails the run.
  retries: 1,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  globalSetup: './global-setup.ts',
  use: {
    browserName: 'chromium',
    // Without the screencast, as in the main flows (e2e/playwright.config.ts).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    { name: 'media', testIgnore: WEBKIT_FILES },
    // The WebKit files one at a time, beside the others: each starts WebKitWebDriver on the same port and adds
    // and removes the namespace's one default route (webkit-page.ts). Two at once failed in CI («Unable to
    // listen for HTTP server at host 127.0.0.1 and port 4445»).
    { name: 'webkit', testMatch: WEBKIT_FILES, workers: 1 },
  ],
});
