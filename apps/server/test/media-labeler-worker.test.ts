import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import { apiUrl, mediaRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_NICE } from '../src/modules/media/processing/media-spawner.ts';
import { humanLabeler } from '../src/modules/media/tagger/human-labeler.ts';
import { EVAL_DIR } from './fixtures/eval-photos/evaluate.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { publish } from './media-helpers.ts';

/**
 * Issue 17 item 12: the detector's WASM inference (100–200 ms of synchronous work per frame) never runs on the
 * server's main thread, and it releases every tensor it makes.
 */
const require = createRequire(import.meta.url);
const detectorLoadedHere = () => Object.keys(require.cache).some((file) => file.includes('human.node-wasm'));

const photo = fs.readFileSync(path.join(EVAL_DIR, 'grace_hopper.jpg'));

describe('the labeler runs in its own worker thread', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a photo post is tagged by the pipeline without the detector ever loading on the server thread', async () => {
    expect(isMainThread).toBe(true);
    const me = await registerUser(t.app);
    const post = await publish(t.app, me.access_token, [
      { field: 'files', filename: 'hopper.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    expect(post.status).toBe('done');
    // The detector did run (a person is only found by it, never by the signals or the caption)…
    expect(post.ai_tags).toContain('person');
    // …but its code was never loaded into this thread: it lives in the worker.
    expect(detectorLoadedHere()).toBe(false);
    const res = await t.app.inject({
      method: 'GET',
      url: apiUrl(mediaRoutes.post, { id: post.id }),
      headers: bearer(me.access_token),
    });
    expect(res.statusCode).toBe(200);
  }, 180_000);
});

describe('the labeler worker', () => {
  const labeler = humanLabeler();
  afterAll(async () => {
    await labeler.close();
  });

  it('answers from a thread other than the caller', async () => {
    const id = await labeler.threadId();
    expect(id).not.toBe(threadId);
    expect(id).toBeGreaterThan(0);
    // …at a lower CPU priority than the server's event loop (a Linux thread has a niceness of its own).
    if (process.platform === 'linux') expect(await labeler.niceness()).toBe(MEDIA_NICE);
  }, 120_000);

  it('keeps the same number of live tensors after every post it labels', async () => {
    const frames = [
      photo,
      fs.readFileSync(
        path.join(
          EVAL_DIR,
          fs.readdirSync(EVAL_DIR).find((f) => f.endsWith('.jpg') && f !== 'grace_hopper.jpg')!,
        ),
      ),
    ];
    await labeler.label([frames[0]!]);
    const before = await labeler.memory();
    for (let i = 0; i < 3; i += 1) {
      const labels = await labeler.label(frames);
      expect(labels.objects.length).toBeGreaterThan(0);
      expect(await labeler.memory()).toEqual(before);
    }
  }, 180_000);

  it('after close the next call starts a fresh worker, which labels as before', async () => {
    const first = await labeler.threadId();
    await labeler.close();
    const second = await labeler.threadId();
    expect(second).not.toBe(first);
    const labels = await labeler.label([photo]);
    expect(labels.objects.some((o) => o.label === 'person')).toBe(true);
  }, 180_000);
});
