/// <reference lib="dom" />
// Viewer join → first decoded remote frame, on loopback: the real Kadr server with its livekit-server child,
// a host page publishing Chromium's fake 720p camera, and a viewer page that joins 10 times through the
// web app's media wrapper. Measured in the viewer page, from just before connect() to the first
// requestVideoFrameCallback of the attached <video>. Runs inside the loopback namespace:
//   node scripts/e2e-media.mjs --bench
import { chromium } from 'playwright-core';
import { mediaTokenIssuer } from '../apps/server/src/modules/livekit/tokens.ts';
import type {} from '../e2e/media/harness/main.ts';
import { chromiumArgs, chromiumPath, startMediaStack } from '../e2e/media/stack.ts';

const JOINS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const stack = await startMediaStack();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const tokens = mediaTokenIssuer({
    serverUrl: stack.livekitUrl,
    apiKey: stack.apiKey,
    apiSecret: stack.apiSecret,
  });
  const room = { kind: 'stream', streamId: 1 } as const;
  const host = await (await browser.newContext()).newPage();
  const viewer = await (await browser.newContext()).newPage();
  for (const page of [host, viewer]) {
    await page.goto(stack.harnessUrl);
    await page.waitForFunction(() => typeof window.harness === 'object');
  }
  const hostToken = await tokens.issue(room, 'host', { userId: 1, name: 'host' });
  await host.evaluate(({ url, token }) => window.harness.connect(url, token), {
    url: hostToken.server_url,
    token: hostToken.access_token,
  });
  await host.evaluate(() => window.harness.publishCamera());

  const samples: number[] = [];
  for (let i = 0; i < JOINS; i++) {
    const token = await tokens.issue(room, 'viewer', { userId: 100 + i, name: `viewer ${i}` });
    await viewer.evaluate(({ url, token }) => window.harness.connect(url, token), {
      url: token.server_url,
      token: token.access_token,
    });
    const handle = await viewer.waitForFunction(
      () => window.harness.videoStats()[0]?.firstFrameMs ?? null,
      null,
      {
        timeout: 30_000,
      },
    );
    samples.push(Number(await handle.jsonValue()));
    await viewer.evaluate(() => window.harness.disconnect());
  }
  const rounded = samples.map((ms) => Math.round(ms));
  console.log(`media first frame (viewer connect() → first decoded remote frame, loopback, ${JOINS} joins)`);
  console.log(`  samples ms: ${rounded.join(', ')}`);
  console.log(
    `  median: ${Math.round(median(samples))} ms   min: ${Math.min(...rounded)} ms   max: ${Math.max(...rounded)} ms`,
  );
} finally {
  await browser.close();
  await stack.stop();
}
