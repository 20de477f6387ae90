import { apiUrl } from '@kadr/contract/browser';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { expect, test } from './test.ts';

// A returning visitor's page is controlled by the service worker. Its API calls must not pass through the
// worker's fetch handler (nor wait for the worker to start after it went idle): static routes send them
// straight to the network.
test('API requests of a controlled page bypass the service worker', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  const sources = await page.evaluate(async (url) => {
    const full = new URL(url, location.href).href;
    await (await fetch(url)).json();
    const entry = performance.getEntriesByType('resource').findLast((e) => e.name === full) as
      | (PerformanceResourceTiming & { workerMatchedSourceType?: string; workerFinalSourceType?: string })
      | undefined;
    return { matched: entry?.workerMatchedSourceType, final: entry?.workerFinalSourceType };
  }, apiUrl(healthEndpoints.get));
  // Chromium's resource timing names the static route that served the request: without one, the fetch
  // handler ran and both are empty.
  expect(sources).toEqual({ matched: 'network', final: 'network' });
});
