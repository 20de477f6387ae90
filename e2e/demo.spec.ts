import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiUrl } from '@kadr/contract/browser';
import { demoEndpoints } from '@kadr/contract/demo/endpoints';
import { healthEndpoints } from '@kadr/contract/health/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { uniqueUsername } from './helpers.ts';
import { expect, type Page, test } from './test.ts';
import { playedBetween } from './video-time.ts';

/**
 * A first run: an empty instance of its own (a fresh DATA_DIR; the suite's shared server already has
 * people and posts), its first account registers, presses «Добавить демо-контент», and within a minute the home
 * shows stories and a grid and the feed plays a real clip with sound. The seeding time itself is printed (and
 * measured by `npm run seed:demo`), not asserted.
 */

const PORT = Number(process.env.E2E_DEMO_PORT ?? 3190);
const base = `http://localhost:${PORT}`;
const repoRoot = path.resolve(import.meta.dirname, '..');
const screens = path.join(repoRoot, 'test-results', 'screens');
/** A condition, not a timing: on the loaded shared machine a run took ~20–40 s. */
const SEEDED_WITHIN_MS = 60_000;

let server: ChildProcess;
let dataDir: string;

test.describe.configure({ timeout: 600_000 });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-e2e-demo-'));
  server = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/main.mjs')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      // Production hides the offer unless the operator allows it: this instance does.
      DEMO_CONTENT: 'true',
      LOG_LEVEL: 'warn',
      // The suite's own server runs the media server; this one needs none.
      LIVEKIT_BIN: path.join(dataDir, 'no-livekit'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // A fresh embedded database migrates first: minutes on a loaded machine.
  const until = Date.now() + 480_000;
  for (;;) {
    const up = await fetch(`${base}${apiUrl(healthEndpoints.get)}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (server.exitCode !== null) throw new Error(`the demo server exited (${server.exitCode})`);
    if (Date.now() > until) throw new Error('the demo server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  fs.mkdirSync(screens, { recursive: true });
  for (const [label, size] of [
    ['390x844', { width: 390, height: 844 }],
    ['1440x900', { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(size);
    // Every picture on screen has loaded (the grid's tiles, the feed's poster) before the shot.
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.images]
            .filter(
              (i) => i.getBoundingClientRect().bottom > 0 && i.getBoundingClientRect().top < innerHeight,
            )
            .every((i) => i.complete),
        ),
      )
      .toBe(true);
    await page.screenshot({ path: path.join(screens, `demo-${name}-${label}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('register on an empty instance → «Добавить демо-контент» → stories, a grid and a playing clip with sound', async ({
  page,
}) => {
  await page.goto(`${base}/register`);
  await page.getByLabel('Имя пользователя').fill(uniqueUsername('first'));
  await page.getByLabel('Имя', { exact: true }).fill('Первый');
  await page.getByLabel('Пароль').fill('secret-password-1');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();

  const home = page.getByTestId('home-page');
  await expect(home).toBeVisible({ timeout: 60_000 });
  const add = page.getByRole('button', { name: 'Добавить демо-контент' });
  await expect(add).toBeVisible({ timeout: 30_000 });
  // The control is on screen and not covered.
  const box = await add.boundingBox();
  expect(box).not.toBeNull();
  const hit = await add.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.bottom <= innerHeight && r.right <= innerWidth && (at === el || el.contains(at));
  });
  expect(hit).toBe(true);

  await add.click();
  await expect(page.getByTestId('demo-progress')).toBeVisible();

  // Within a minute: stories of the people now followed, and the grid of their posts.
  const strip = page.getByRole('navigation', { name: 'Истории' });
  await expect(strip.getByRole('button', { name: /^Истории .+, есть новые$/ }).first()).toBeVisible({
    timeout: SEEDED_WITHIN_MS,
  });
  await expect(home.locator('[data-post-id]').first()).toBeVisible({ timeout: SEEDED_WITHIN_MS });
  expect(await home.locator('[data-post-id]').count()).toBeGreaterThanOrEqual(12);
  await expect(page.getByTestId('demo-offer')).toHaveCount(0);

  const token = await page.evaluate(() => localStorage.getItem('auth:accessToken'));
  type DemoState = { seeding: { status: string; started_at: string; finished_at: string } };
  const demoState = async () =>
    (await (
      await fetch(`${base}${apiUrl(demoEndpoints.state)}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as DemoState;
  // The home fills first; the chats' photos go through the media queue after it, and the run ends then.
  await expect
    .poll(async () => (await demoState()).seeding.status, { timeout: SEEDED_WITHIN_MS })
    .toBe('done');
  const state = await demoState();
  console.log(
    `demo seeding took ${new Date(state.seeding.finished_at).getTime() - new Date(state.seeding.started_at).getTime()} ms (load ${os.loadavg()[0]?.toFixed(1)})`,
  );
  const stories = (await (
    await fetch(`${base}${apiUrl(storiesEndpoints.feed)}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { stories_groups: unknown[] };
  expect(stories.stories_groups.length).toBeGreaterThanOrEqual(3);
  await shot(page, 'home');

  // The feed: a video post plays (time advances) and its sound is decoded (an audio track, bytes decoded).
  const feed = (await (
    await fetch(`${base}${apiUrl(storiesEndpoints.homeFeed, undefined, { limit: 50 })}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { posts: { id: number; files: { file_type: string }[] }[] };
  const clip = feed.posts.find((p) => p.files[0]?.file_type === 'video');
  expect(clip).toBeDefined();
  await home.locator(`[data-post-id="${clip?.id}"]`).click();
  const video = page.locator('video').first();
  await expect(video).toBeVisible({ timeout: 30_000 });
  const unmute = page.getByRole('button', { name: /Включить звук/ });
  if (await unmute.isVisible().catch(() => false)) await unmute.click();
  const sample = () =>
    video.evaluate((v: HTMLVideoElement & { webkitAudioDecodedByteCount?: number }) => ({
      time: v.currentTime,
      length: v.duration,
      audio: v.webkitAudioDecodedByteCount ?? 0,
      tracks: (v as HTMLVideoElement & { captureStream(): MediaStream }).captureStream().getAudioTracks()
        .length,
    }));
  await expect.poll(async () => (await sample()).time, { timeout: 30_000 }).toBeGreaterThan(0.5);
  const first = await sample();
  // Played on, counted across the loop's wraps: a first sample near the clip's end is followed by a wrap.
  let last = first.time;
  let played = 0;
  await expect
    .poll(
      async () => {
        const now = await sample();
        played += playedBetween(last, now.time, now.length);
        last = now.time;
        return played;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await expect.poll(async () => (await sample()).audio, { timeout: 30_000 }).toBeGreaterThan(0);
  expect((await sample()).tracks).toBeGreaterThan(0);
  await shot(page, 'feed');
});
