/// <reference lib="dom" />
// Swipe-to-first-frame in the real feed: the whole app (built SPA + server) on a temp data dir, 21 video
// posts uploaded and processed through the real pipeline, Debian's Chromium swiping 20 times. Baseline: the
// same videos started cold (a fresh <video>, no preloading, HTTP cache bypassed, with sound like the feed)
// in the same page. Both on the bare loopback and on an emulated 4G-like link (where preloading matters).
// Both cases wait for the first frame of playback (mediaTime > 0); 'cold, frame 0' adds the cold start's
// first decoded frame, which a preloaded post already shows before the swipe.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import {
  NETWORKS,
  type NetworkProfile,
  percentile,
  registerAt,
  row,
  type BenchSession as Session,
  waitHealthy,
} from './lib.ts';

const SWIPES = 20;
const root = path.join(import.meta.dirname, '..');

function makeVideos(dir: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const out = path.join(dir, `clip-${i}.mp4`);
    execFileSync('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `testsrc=duration=4:size=720x1280:rate=30,hue=h=${i * 17}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=${300 + i * 20}:duration=4`],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out],
    ]);
    return out;
  });
}

async function seed(base: string, files: string[]): Promise<{ session: Session; ids: number[] }> {
  const session = await registerAt(base, `swipe_${Date.now().toString(36)}`, 'Bench');
  const auth = { Authorization: `Bearer ${session.access_token}` };
  const ids: number[] = [];
  for (const file of files) {
    const form = new FormData();
    form.append('media_type', 'video');
    form.append('caption', path.basename(file));
    form.append('files', new Blob([readFileSync(file)], { type: 'video/mp4' }), path.basename(file));
    const answer = await fetch(`${base}/api/v1/media/upload`, { method: 'POST', headers: auth, body: form });
    if (!answer.ok) throw new Error(`upload: ${answer.status} ${await answer.text()}`);
    ids.push(((await answer.json()) as { post: { id: number } }).post.id);
  }
  for (const id of ids) {
    for (;;) {
      const r = await fetch(`${base}/api/v1/media/post/${id}`, { headers: auth });
      const { post } = (await r.json()) as { post: { status: string } };
      if (post.status === 'done') break;
      if (post.status === 'failed') throw new Error(`processing failed for ${id}`);
      await new Promise((res) => setTimeout(res, 500));
    }
  }
  return { session, ids };
}

interface Helpers {
  /** Resolves with performance.now() at the first presented frame past the start (mediaTime > 0). */
  __movingFrame: (video: HTMLVideoElement) => Promise<number>;
}

// A string, not a function: tsx would wrap named functions in `__name`, which the page does not have.
// "First frame" means the first frame of playback: a preloaded video already shows its frame 0 (or
// poster), so both the swipe and the cold start wait for a frame past 0.
const MOVING_FRAME_HELPER = `
window.__movingFrame = (video) => new Promise((resolve) => {
  const onFrame = (now, meta) => {
    if (meta.mediaTime > 0) resolve(performance.now());
    else video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
});
`;

/** A fresh context (empty HTTP cache): 20 swipes through the feed, then each video started cold. */
async function measure(
  browser: Browser,
  base: string,
  session: Session,
  order: number[],
  profile: NetworkProfile,
): Promise<{ swipeMs: number[]; coldMs: number[]; coldFirstMs: number[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript({ content: MOVING_FRAME_HELPER });
    await context.addInitScript((s) => {
      localStorage.setItem('dataVersion', '1.1.0');
      localStorage.setItem('auth:accessToken', s.access_token);
      localStorage.setItem('auth:user', JSON.stringify(s.user));
    }, session);
    const page = await context.newPage();
    if (profile.conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.conditions });
    }
    await page.goto(`${base}/media`);
    await page.waitForFunction(
      () =>
        document.querySelector('article[aria-current="true"] video')?.getAttribute('data-state') ===
        'playing',
    );

    const swipeMs: number[] = [];
    for (let i = 0; i < SWIPES; i++) {
      // Let the preload window settle as a viewer would (about a second on each post).
      await page.waitForTimeout(1000);
      await page.evaluate(
        (id) => {
          const w = window as unknown as { __swipe?: Promise<number> };
          w.__swipe = new Promise<number>((resolve) => {
            window.addEventListener(
              'pointerup',
              () => {
                const t0 = performance.now();
                const video = document.querySelector<HTMLVideoElement>(`article[data-post-id="${id}"] video`);
                if (!video) return resolve(Number.NaN);
                (window as unknown as Helpers).__movingFrame(video).then((at) => resolve(at - t0));
                setTimeout(() => resolve(Number.NaN), 5000);
              },
              { once: true, capture: true },
            );
          });
        },
        order[i + 1],
      );
      // One task, like a finger: the feed moves only for a swipe under 300 ms.
      // No named helpers inside: tsx would wrap them in `__name`, which the page does not have.
      await page.locator('[aria-roledescription="feed"]').evaluate((el) => {
        for (const [type, y] of [
          ['pointerdown', 500],
          ['pointermove', 420],
          ['pointermove', 300],
          ['pointerup', 300],
        ] as const) {
          el.dispatchEvent(
            new PointerEvent(type, {
              bubbles: true,
              pointerId: 3,
              pointerType: 'touch',
              isPrimary: true,
              button: 0,
              clientX: 500,
              clientY: y,
            }),
          );
        }
      });
      swipeMs.push(await page.evaluate(() => (window as unknown as { __swipe: Promise<number> }).__swipe));
    }

    // Baseline: each video started cold in a fresh element, no preload, cache bypassed, with sound like the feed.
    const urls = await page.evaluate(async (token) => {
      const r = await fetch('/api/v1/media/feed?offset=0&limit=50', {
        headers: { Authorization: `Bearer ${token}` },
      });
      const { posts } = (await r.json()) as { posts: Array<{ files: Array<{ file_url: string }> }> };
      return posts.map((p) => p.files[0]?.file_url ?? '');
    }, session.access_token);
    const coldFirstMs: number[] = [];
    const coldMs: number[] = [];
    for (const [i, url] of urls.slice(1, SWIPES + 1).entries()) {
      const [firstFrame, movingFrame] = await page.evaluate(
        ({ src }) =>
          new Promise<[number, number]>((resolve) => {
            const video = document.createElement('video');
            video.playsInline = true;
            document.body.append(video);
            const t0 = performance.now();
            let first = Number.NaN;
            video.requestVideoFrameCallback(() => {
              first = performance.now() - t0;
            });
            (window as unknown as Helpers).__movingFrame(video).then((at) => {
              resolve([first, at - t0]);
              video.remove();
            });
            video.src = src;
            void video.play();
          }),
        { src: `${url}?cold=${i}-${Date.now()}` },
      );
      coldFirstMs.push(firstFrame);
      coldMs.push(movingFrame);
    }
    return { swipeMs, coldMs, coldFirstMs };
  } finally {
    await context.close();
  }
}

export async function feedSwipeBench(port = Number(process.env.BENCH_SWIPE_PORT ?? 3144)): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kadr-bench-swipe-'));
  const base = `http://localhost:${port}`;
  const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required', '--disable-background-networking'],
  });
  try {
    await waitHealthy(base, app);
    const { session, ids } = await seed(base, makeVideos(dataDir, SWIPES + 1));
    const lines = [row(['network', 'case', 'p50 ms', 'p75 ms', 'max ms', 'samples'])];
    for (const profile of NETWORKS) {
      const { swipeMs, coldMs, coldFirstMs } = await measure(
        browser,
        base,
        session,
        [...ids].reverse(),
        profile,
      );
      const stats = (name: string, values: number[]) => {
        const valid = values.filter(Number.isFinite);
        return row([
          profile.name,
          name,
          percentile(valid, 50),
          percentile(valid, 75),
          Math.max(...valid),
          valid.length,
        ]);
      };
      lines.push(
        stats('feed swipe', swipeMs),
        stats('cold start', coldMs),
        stats('cold, frame 0', coldFirstMs),
      );
    }
    return lines;
  } finally {
    await browser.close();
    app.kill('SIGTERM');
  }
}
