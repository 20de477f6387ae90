/// <reference lib="dom" />
// Tap next → the next story's media shown, in the real viewer: the whole app (built SPA + server) on a temp
// data dir, 21 image stories uploaded and processed through the real pipeline, Debian's Chromium tapping the
// right third 20 times (the viewer preloads the next story). Baseline: the same images started cold in the
// same page (a fresh <img>, HTTP cache bypassed) until decoded. Loopback and an emulated 4G-like link.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import sharp from 'sharp';
import {
  NETWORKS,
  type NetworkProfile,
  percentile,
  registerAt,
  row,
  type BenchSession as Session,
  waitHealthy,
} from './lib.ts';

const TAPS = 20;
const root = path.join(import.meta.dirname, '..');

/** A busy 1080×1920 photo (so it weighs what a real one does), different per index. */
function photo(i: number): Promise<Buffer> {
  const w = 1080;
  const h = 1920;
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      px[o] = (x * 7 + i * 40) % 256;
      px[o + 1] = (y * 5 + ((x ^ y) & 63)) % 256;
      px[o + 2] = ((x * y) >> 6) % 256;
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

async function seed(base: string): Promise<{ viewer: Session; author: Session; urls: string[] }> {
  const viewer = await registerAt(base, `viewer_${Date.now().toString(36)}`, 'viewer');
  const author = await registerAt(base, `author_${Date.now().toString(36)}`, 'author');
  await fetch(`${base}/api/v1/profile/${author.user.username}/follow`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${viewer.access_token}` },
  });
  for (let i = 0; i <= TAPS; i++) {
    const form = new FormData();
    form.append('media_type', 'photo');
    // Long enough that no story advances by itself while the bench taps.
    form.append('duration', '120');
    form.append('file', new Blob([new Uint8Array(await photo(i))], { type: 'image/jpeg' }), `s${i}.jpg`);
    const r = await fetch(`${base}/api/v1/stories/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${author.access_token}` },
      body: form,
    });
    if (!r.ok) throw new Error(`upload: ${r.status} ${await r.text()}`);
  }
  for (let tries = 0; tries < 600; tries++) {
    const r = await fetch(`${base}/api/v1/stories/feed?limit=20`, {
      headers: { Authorization: `Bearer ${viewer.access_token}` },
    });
    const { stories_groups } = (await r.json()) as { stories_groups: { stories: { file_url: string }[] }[] };
    const urls = stories_groups[0]?.stories.map((s) => s.file_url) ?? [];
    if (urls.length > TAPS) return { viewer, author, urls };
    await new Promise((res) => setTimeout(res, 500));
  }
  throw new Error('stories did not finish processing');
}

// A string, not a function: tsx would wrap named functions in `__name`, which the page does not have.
// Resolves with the time the viewer's <img> for `id` has loaded and a frame has been presented after it.
const SHOWN_HELPER = `
window.__shown = (id, t0) => new Promise((resolve) => {
  const check = () => {
    const viewer = document.querySelector('[data-testid="story-viewer"]');
    const img = viewer && viewer.getAttribute('data-story-id') === String(id) && viewer.querySelector('img[data-testid="story-media"]');
    if (img && img.complete && img.naturalWidth > 0) {
      requestAnimationFrame(() => resolve(performance.now() - t0));
      return;
    }
    if (performance.now() - t0 > 10000) return resolve(NaN);
    requestAnimationFrame(check);
  };
  check();
});
`;

async function measure(
  browser: Browser,
  base: string,
  viewer: Session,
  author: Session,
  urls: string[],
  conditions: NetworkProfile['conditions'],
): Promise<{ tapMs: number[]; coldMs: number[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    // tsx compiles this file with keepNames: functions inside the page callbacks call esbuild's `__name`.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await context.addInitScript({ content: SHOWN_HELPER });
    await context.addInitScript((s) => {
      localStorage.setItem('dataVersion', '1.1.0');
      localStorage.setItem('auth:accessToken', s.access_token);
      localStorage.setItem('auth:user', JSON.stringify(s.user));
    }, viewer);
    const page = await context.newPage();
    if (conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...conditions });
    }
    await page.goto(`${base}/home`);
    await page.getByRole('button', { name: new RegExp(`^Истории ${author.user.name}`) }).click();
    await page.getByTestId('story-viewer').waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[data-testid="story-media"]');
      return img?.complete && img.naturalWidth > 0;
    });
    const tapMs: number[] = [];
    for (let i = 0; i < TAPS; i++) {
      // About a second on each story, as a person would (the preload has that long).
      await page.waitForTimeout(1000);
      const ms = await page.getByTestId('story-stage').evaluate((stage) => {
        const viewerEl = document.querySelector('[data-testid="story-viewer"]');
        const before = Number(viewerEl?.getAttribute('data-story-id'));
        const rect = stage.getBoundingClientRect();
        const x = rect.left + rect.width * 0.85;
        const y = rect.top + rect.height / 2;
        const t0 = performance.now();
        for (const type of ['pointerdown', 'pointerup'] as const)
          stage.dispatchEvent(
            new PointerEvent(type, {
              bubbles: true,
              pointerId: 5,
              pointerType: 'touch',
              isPrimary: true,
              button: 0,
              clientX: x,
              clientY: y,
            }),
          );
        const w = window as unknown as { __shown: (id: number, t0: number) => Promise<number> };
        return new Promise<number>((resolve) => {
          const start = performance.now();
          const poll = () => {
            const now = Number(
              document.querySelector('[data-testid="story-viewer"]')?.getAttribute('data-story-id'),
            );
            if (now && now !== before) w.__shown(now, t0).then(resolve);
            else if (performance.now() - start > 5000) resolve(Number.NaN);
            else requestAnimationFrame(poll);
          };
          poll();
        });
      });
      tapMs.push(ms);
    }
    const coldMs: number[] = [];
    for (const [i, url] of urls.slice(1, TAPS + 1).entries()) {
      coldMs.push(
        await page.evaluate(
          (src) =>
            new Promise<number>((resolve) => {
              const img = new Image();
              const t0 = performance.now();
              img.onload = () =>
                img.decode().then(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
              img.onerror = () => resolve(Number.NaN);
              img.src = src;
            }),
          `${url}?cold=${i}-${Date.now()}`,
        ),
      );
    }
    return { tapMs, coldMs };
  } finally {
    await context.close();
  }
}

export async function storyNextBench(port = Number(process.env.BENCH_STORY_PORT ?? 3146)): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kadr-bench-story-'));
  const base = `http://localhost:${port}`;
  const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JOBS_POLL_MS: '100',
      // The seed uploads more stories than one person may in an hour (story.upload, 20/h).
      RATE_LIMITS: 'story.upload=1000/1h,story.like=1000/1m',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking'],
  });
  try {
    await waitHealthy(base, app);
    const { viewer, author, urls } = await seed(base);
    const lines = [row(['network', 'case', 'p50 ms', 'p75 ms', 'max ms', 'samples'])];
    for (const network of NETWORKS) {
      const { tapMs, coldMs } = await measure(browser, base, viewer, author, urls, network.conditions);
      const stats = (name: string, values: number[]) => {
        const valid = values.filter(Number.isFinite);
        return row([
          network.name,
          name,
          percentile(valid, 50),
          percentile(valid, 75),
          Math.max(...valid),
          valid.length,
        ]);
      };
      lines.push(stats('tap next (preloaded)', tapMs), stats('cold start', coldMs));
    }
    return lines;
  } finally {
    await browser.close();
    app.kill('SIGTERM');
  }
}
