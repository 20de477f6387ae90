// @own-process: it asserts that no libvips thread runs in its own process (apps/server/vitest.projects.ts).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../src/jobs/queue.ts';
import { cpuCgroupOf } from '../src/lib/media-cgroup.ts';
import { MEDIA_NICE, SCHED_IDLE } from '../src/lib/thread-priority.ts';
import { DEMO_ASSETS_DIR } from '../src/modules/demo/manifest.ts';
import {
  closeImageProcess,
  FEED_IMAGE_SIDE,
  imageProcessInfo,
  processImage,
  processPostImage,
  SCREEN_IMAGE_HEIGHT,
  SCREEN_IMAGE_WIDTH,
  screenSize,
  THUMBNAIL_SIDE,
} from '../src/modules/media/processing/image.ts';
import { rejected } from '../src/modules/media/processing/post-job.ts';
import { EVAL_DIR } from './fixtures/eval-photos/evaluate.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { alive, expectInIdleMediaCgroup, idleCgroupHere, publish } from './media-helpers.ts';

/**
 * Issue 17 item 12 (ADR 0017): every pixel of a user's picture is decoded, resized and encoded in the image
 * process, never in the server's: under `SCHED_IDLE` in the idle cgroup, a photo takes no core from the event
 * loop or from PostgreSQL's backends. In the server libvips never starts its pool (whose threads are named
 * `libvips worker`), which it does on the first pixel it touches.
 */
const photo = fs.readFileSync(path.join(EVAL_DIR, 'grace_hopper.jpg'));
const ownThreads = () =>
  fs
    .readdirSync('/proc/self/task')
    .map((tid) => fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
const libvipsHere = () => ownThreads().some((name) => name.startsWith('libvips'));

describe.runIf(process.platform === 'linux')('the image process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await closeImageProcess();
  });

  it('publishes a photo post with every pixel decoded outside the server process', async () => {
    expect(libvipsHere()).toBe(false);
    const me = await registerUser(t.app);
    const post = await publish(t.app, me.access_token, [
      { field: 'files', filename: 'hopper.jpg', contentType: 'image/jpeg', data: photo },
      { field: 'files', filename: 'hopper-2.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    expect(post.status).toBe('done');
    expect(post.files).toHaveLength(2);
    expect(post.files[0]!.width).toBeGreaterThan(0);
    // The upload was checked by its content here (headers only), and resized, encoded and measured there.
    expect(libvipsHere()).toBe(false);
  }, 180_000);

  it('runs at the media priority, in the idle cgroup where the machine has one', async () => {
    // The default scheduling, checked in a process started for it; the server project runs media at `none`
    // (vitest.config.ts), and the next process starts at that again (an idle-class one would starve beside the
    // other suites of a run).
    process.env.MEDIA_SCHEDULING = 'idle';
    await closeImageProcess();
    try {
      const info = await imageProcessInfo();
      expect(info.pid).not.toBe(process.pid);
      expect(info.nice).toBe(MEDIA_NICE);
      expect(info.policy).toBe(SCHED_IDLE);
      if (idleCgroupHere) expectInIdleMediaCgroup(cpuCgroupOf(info.pid));
    } finally {
      process.env.MEDIA_SCHEDULING = 'none';
      await closeImageProcess();
    }
  }, 60_000);

  it('answers the feed variant and thumbnail as webp within their sides', async () => {
    const img = await processImage(photo);
    expect(img.feed.subarray(8, 12).toString()).toBe('WEBP');
    expect(img.thumbnail.subarray(8, 12).toString()).toBe('WEBP');
    // What the bytes say, not only what the process reports (headers only: no pixels decoded here).
    const feed = await sharp(img.feed).metadata();
    const thumbnail = await sharp(img.thumbnail).metadata();
    expect([feed.width, feed.height]).toEqual([img.width, img.height]);
    expect(Math.max(img.width, img.height)).toBeLessThanOrEqual(FEED_IMAGE_SIDE);
    expect(Math.max(thumbnail.width ?? 0, thumbnail.height ?? 0)).toBe(
      Math.min(THUMBNAIL_SIDE, Math.max(img.width, img.height)),
    );
  }, 60_000);

  it('answers a post photo with a screen variant within 720×1280, lighter than the feed file', async () => {
    // Real photographs: the demo's landscape (1440×1080) and portrait (959×1440) feed files as uploads, and a
    // photo smaller than the box, which keeps its size.
    const photos = [
      fs.readFileSync(path.join(DEMO_ASSETS_DIR, 'mountain-trail.webp')),
      fs.readFileSync(path.join(DEMO_ASSETS_DIR, 'dogs.webp')),
      photo,
    ];
    for (const upload of photos) {
      const img = await processPostImage(upload);
      const screen = await sharp(img.screen).metadata();
      expect(screen.format).toBe('webp');
      expect(screen.exif).toBeUndefined();
      expect({ width: screen.width, height: screen.height }).toEqual(screenSize(img.width, img.height));
      expect(screen.width).toBeLessThanOrEqual(SCREEN_IMAGE_WIDTH);
      expect(screen.height).toBeLessThanOrEqual(SCREEN_IMAGE_HEIGHT);
      expect(img.screen.length).toBeLessThan(img.feed.length);
    }
    expect(libvipsHere()).toBe(false);
  }, 60_000);

  it("passes the decoder's refusal on, so the job fails at once with the reason the uploader sees", async () => {
    const refusal = await processImage(Buffer.from('not an image at all')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect(() => rejected(refusal)).toThrow(PermanentJobError);
  }, 60_000);

  it('a process that dies is replaced on the next call', async () => {
    const first = (await imageProcessInfo()).pid;
    process.kill(first, 'SIGKILL');
    while (alive(first)) await new Promise((r) => setTimeout(r, 20));
    const img = await processImage(photo);
    expect(img.width).toBeGreaterThan(0);
    expect((await imageProcessInfo()).pid).not.toBe(first);
  }, 60_000);
});
