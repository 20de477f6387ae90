import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, mediaRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { type RealWorldFile, realWorldMedia } from './fixtures/real-world-media.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { count, filesUnder, MEDIA_TEST_ENV, upload } from './media-helpers.ts';

let t: TestApp;
let set: RealWorldFile[];
let dir: string;

beforeAll(async () => {
  dir = tempDir('kadr-real-world-');
  set = await realWorldMedia(findFfmpeg(), dir);
  t = await createTestApp({ ...MEDIA_TEST_ENV, JOBS_TIMEOUT_MS: '60000' });
}, 240_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('real-world media set through the pipeline', () => {
  it('each file becomes a post or is refused at upload with a 4xx, never stuck or failed later', async () => {
    const user = await registerUser(t.app);
    const outcomes: Record<string, string> = {};
    for (const item of set) {
      const data = fs.readFileSync(item.file);
      const res = await upload(t.app, user.access_token, [
        { field: 'files', filename: path.basename(item.file), data },
      ]);
      if ('refused' in item.expect) {
        outcomes[item.name] = `${res.statusCode}`;
        expect(res.statusCode, item.name).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, item.name).toBeLessThan(500);
        expect(res.json(), item.name).toHaveProperty('code');
        continue;
      }
      expect(res.statusCode, `${item.name}: ${res.body}`).toBe(202);
      const id = res.json().post.id as number;
      await t.app.ctx.media.jobs.idle();
      const post = (
        await t.app.inject({
          method: 'GET',
          url: apiUrl(mediaRoutes.post, { id }),
          headers: bearer(user.access_token),
        })
      ).json().post;
      outcomes[item.name] = post.status;
      expect(post.status, item.name).toBe('done');
      expect(post.media_type, item.name).toBe(item.expect.post);
      expect(post.files[0].file_url, item.name).toMatch(/^\/files\//);
      expect(post.files[0].width, item.name).toBeGreaterThan(0);
      if (item.name.startsWith('portrait')) expect(post.files[0].height).toBeGreaterThan(post.files[0].width);
    }
    // One attempt each: nothing was retried because an optional signal could not be computed.
    const jobs = await t.db.kysely
      .selectFrom('jobs')
      .select(['status', 'attempts', 'last_error'])
      .where('kind', 'like', 'media.process-%')
      .execute();
    expect(jobs.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
    expect(filesUnder(path.join(t.dataDir, 'tmp'))).toEqual([]);
    expect(await count(t.db, 'posts')).toBe(set.filter((s) => 'post' in s.expect).length);
    console.info('real-world set:', outcomes);
  }, 600_000);
});
