/// <reference lib="dom" />
// Live stream viewer join → first decoded frame, on loopback, through the product path: the host page
// publishes Chromium's fake 720p camera into a live stream created with POST /livestreams; each of 20
// viewers asks POST /livestreams/{id}/viewer-join and GET /livestreams/{id}/token side by side (as the web
// app does), then connects with the web app's media wrapper. Measured from just before the two API calls
// to the viewer page's first requestVideoFrameCallback, with the phases between (API, signalling + first
// PeerConnection, subscription, first frame). Runs inside the loopback namespace:
// node scripts/e2e-media.mjs --bench-live
import { chromium } from 'playwright-core';
import type {} from '../e2e/media/harness/main.ts';
import { chromiumArgs, chromiumPath, startMediaStack } from '../e2e/media/stack.ts';
import { percentile, registerAt } from './lib.ts';

const JOINS = 20;

const register = async (apiUrl: string, username: string) =>
  (await registerAt(apiUrl, username)).access_token;

const stack = await startMediaStack();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const hostToken = await register(stack.apiUrl, `bench_host_${Date.now() % 100000}`);
  const created = await fetch(`${stack.apiUrl}/api/v1/livestreams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hostToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'bench' }),
  });
  const streamId = ((await created.json()) as { id: number }).id;
  const api = async (token: string, method: string, url: string) =>
    (
      await fetch(`${stack.apiUrl}/api/v1${url}`, { method, headers: { authorization: `Bearer ${token}` } })
    ).json();

  const host = await (await browser.newContext()).newPage();
  const viewer = await (await browser.newContext()).newPage();
  for (const page of [host, viewer]) {
    await page.goto(stack.harnessUrl);
    await page.waitForFunction(() => typeof window.harness === 'object');
  }
  const hostMedia = (await api(hostToken, 'GET', `/livestreams/${streamId}/token`)) as {
    server_url: string;
    access_token: string;
  };
  await host.evaluate(({ url, token }) => window.harness.connect(url, token), {
    url: hostMedia.server_url,
    token: hostMedia.access_token,
  });
  await host.evaluate(() => window.harness.publishCamera());

  const samples: number[] = [];
  const phases = {
    api: [] as number[],
    connect: [] as number[],
    subscribe: [] as number[],
    frame: [] as number[],
  };
  for (let i = 0; i < JOINS; i++) {
    const token = await register(stack.apiUrl, `bench_v${i}_${Date.now() % 100000}`);
    // From before the two API calls (made here; the harness page is on another origin) to the first frame.
    const t0 = Date.now();
    const [, media] = (await Promise.all([
      api(token, 'POST', `/livestreams/${streamId}/viewer-join`),
      api(token, 'GET', `/livestreams/${streamId}/token`),
    ])) as [unknown, { server_url: string; access_token: string }];
    const seen = await viewer.evaluate(
      async ({ url, token }) => {
        const wallAtConnect = Date.now();
        await window.harness.connect(url, token);
        for (;;) {
          const stats = window.harness.videoStats()[0];
          if (stats && stats.firstFrameMs !== null) return { wallAtConnect, ...stats };
          await new Promise((r) => setTimeout(r, 5));
        }
      },
      { url: media.server_url, token: media.access_token },
    );
    const firstFrameMs = seen.firstFrameMs ?? 0;
    samples.push(seen.wallAtConnect + firstFrameMs - t0);
    phases.api.push(seen.wallAtConnect - t0);
    phases.connect.push(seen.connectedMs ?? 0);
    // The subscription can land before connect() resolves; each phase is counted from the previous one.
    phases.subscribe.push(Math.max(0, seen.subscribedMs - (seen.connectedMs ?? 0)));
    phases.frame.push(firstFrameMs - Math.max(seen.subscribedMs, seen.connectedMs ?? 0));
    await viewer.evaluate(() => window.harness.disconnect());
  }
  const rounded = samples.map((ms) => Math.round(ms));
  console.log(
    `live stream viewer join → first decoded frame (viewer-join + token + connect, loopback, ${JOINS} joins)`,
  );
  console.log(`  samples ms: ${rounded.join(', ')}`);
  console.log(
    `  p50: ${Math.round(percentile(samples, 50))} ms   p95: ${Math.round(percentile(samples, 95))} ms`,
  );
  console.log(
    `  phases p50 ms: API ${Math.round(percentile(phases.api, 50))}, signalling + PeerConnection ${Math.round(percentile(phases.connect, 50))}, then subscribed ${Math.round(percentile(phases.subscribe, 50))}, then first frame ${Math.round(percentile(phases.frame, 50))}`,
  );
} finally {
  await browser.close();
  await stack.stop();
}
